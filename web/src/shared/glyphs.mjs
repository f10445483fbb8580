// @ts-check
// The timeline's glyphs: each event kind (and attempt outcome) has its own
// SHAPE as well as its own colour, so they stay distinct without colour vision.
// Drawn as SVG paths centred on (0,0), about 11px across: no font dependency.
import { s } from './dom.mjs';

export const GLYPHS = {
  enqueued: { label: 'Enqueued', d: 'M0-3.2A3.2 3.2 0 1 1 0 3.2A3.2 3.2 0 1 1 0-3.2Z', stroke: true },
  success: { label: 'Attempt succeeded', d: 'M0-5A5 5 0 1 1 0 5A5 5 0 1 1 0-5Z' },
  transient: { label: 'Attempt failed transiently', d: 'M0-5.5L5.5 4.5H-5.5Z' },
  permanent: { label: 'Attempt failed permanently', d: 'M-4.5-4.5L4.5 4.5M4.5-4.5L-4.5 4.5', stroke: true, thick: true },
  // Where a requeue goes is the mode's: the playground's legend says it in the core's words (timeline.mjs).
  requeued: { label: 'Requeued', d: 'M4.5 3.5H-1.5A3.5 3.5 0 0 1-1.5-3.5H4M-1 .5L-4.5 3.5L-1 6.5', stroke: true, dx: 0, dy: -1 },
  completed: { label: 'Completed', d: 'M-5 0L-1.5 4L5-4.5', stroke: true, thick: true },
  quarantined: { label: 'Quarantined', d: 'M-4.5-4.5H4.5V4.5H-4.5Z' },
  replayed: { label: 'Replayed by an operator', d: 'M4 -2.5A4.5 4.5 0 1 0 4.5 1.5M4.5-6V-1.8H0.3', stroke: true },
  // The clock's kinds (link format v2): in the legend only once a timeline has them.
  leased: { label: 'Leased (attempt counted)', d: 'M0-5L5 0L0 5L-5 0Z', stroke: true, clock: true },
  expired: { label: 'Lease expired', d: 'M-4-5H4L-4 5H4Z', stroke: true, clock: true },
  delayed: { label: 'Delayed (backoff)', d: 'M0-5A5 5 0 1 1 0 5A5 5 0 1 1 0-5ZM0-3V0H3', stroke: true, clock: true },
  due: { label: 'Due: back at the tail', d: 'M-5 0H4M1-3L4 0L1 3', stroke: true, clock: true },
  // The capstone's operability kinds: likewise only once a timeline has them.
  alert: { label: 'Alert raised', d: 'M0-5.5L5.5 4.5H-5.5ZM0-1.5V1.5M0 3V3.2', stroke: true, clock: true },
  reorder: { label: 'Reorder: overtook its key', d: 'M-5-2H3L1-4.5M5 2H-3L-1 4.5', stroke: true, clock: true },
  'key-released': { label: 'Key released by an operator', d: 'M-2 0A3 3 0 1 1-2 .01M1 0H5.5M4 0V3', stroke: true, clock: true },
  'evidence-expired': { label: 'Evidence expired (retention)', d: 'M-4.5-4.5H4.5V4.5H-4.5ZM-4.5-4.5L4.5 4.5', stroke: true, clock: true },
  'alarm-raised': { label: 'Depth alarm raised', d: 'M-4 3H4L3 1V-1.5A3 3 0 0 0-3-1.5V1ZM-1 4.5H1', stroke: true, clock: true },
  'alarm-cleared': { label: 'Depth alarm cleared', d: 'M-4 3H4L3 1V-1.5A3 3 0 0 0-3-1.5V1ZM-5-5L5 5', stroke: true, clock: true },
  // Recovery after a crash (Capstone III): likewise.
  lost: { label: 'Lost in a crash', d: 'M-4.5-4.5H4.5V4.5H-4.5ZM-2-2L2 2M2-2L-2 2', stroke: true, clock: true },
  'kept-once': { label: 'Found twice after a crash, kept once', d: 'M-5-3H1V3H-5ZM-1-5H5V1', stroke: true, clock: true },
  // A dead letter its mode keeps nowhere (no DLX, removeOnFail true, dead: false): dropped, no entry (a bin). Only once a timeline has one.
  discarded: { label: 'Dropped: kept nowhere (no dead-letter exchange, removeOnFail, dead: false)', d: 'M-4.5-3.5H4.5M-1.5-3.5V-5H1.5V-3.5M-3.5-3.5L-2.5 5H2.5L3.5-3.5', stroke: true, clock: true },
  // An operator's fix of a quarantined payload (a pencil). Only once a timeline has one.
  patched: { label: 'Payload patched by an operator', d: 'M-4.5 4.5L-4 1.5L2.5-5L5-2.5L-1.5 4ZM1-3.5L3.5-1', stroke: true, clock: true },
};

/**
 * The glyph key for an event: attempts by outcome (the capstone's failing
 * outcomes share the permanent or transient shape of what their class does),
 * everything else by kind.
 */
export function glyphKey(event) {
  if (event.kind !== 'attempt') return event.kind;
  if (event.outcome in GLYPHS) return event.outcome;
  return event.disposition === 'quarantined' || event.disposition === 'discarded' ? 'permanent' : 'transient';
}

/** A <path> for glyph `key`; its colour and stroke come from CSS (.g-<key>). */
export function glyphPath(key) {
  const glyph = GLYPHS[key];
  return s('path', { d: glyph.d, class: `dlq-glyph g-${key}${glyph.stroke ? ' is-stroke' : ''}${glyph.thick ? ' is-thick' : ''}` });
}

/** A small standalone SVG of one glyph, for the legend. */
export function glyphIcon(key) {
  return s('svg', { viewBox: '-7 -7 14 14', width: 14, height: 14, 'aria-hidden': 'true', focusable: 'false', class: 'dlq-icon' },
    glyphPath(key));
}
