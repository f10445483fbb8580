// @ts-check
// How the storm lab writes its numbers: counts grouped, rates to a tenth, long
// spans rounded (shared/time-format.mjs), axis ticks compact. Formatting only.
import { grouped, roughMs, roughSeconds, tenths } from '../shared/time-format.mjs';

// Made on first use (the first chart's axis), not as the page starts: see time-format.mjs.
let compact = null;
const COMPACT = () => (compact ??= new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }));

/** 1234567 -> "1,234,567". */
export const fmtInt = grouped;
/** 1234.56 -> "1,234.6" (rates per second, elapsed seconds). */
export const fmtRate = tenths;
/** 25000 -> "25 s": a span of simulated time, rounded. */
export const fmtMs = roughMs;
/** A point on a chart's time axis (in seconds), rounded. */
export const fmtSeconds = roughSeconds;
/** 12000 -> "12K": an axis tick. */
export const fmtCompact = (n) => COMPACT().format(n);
