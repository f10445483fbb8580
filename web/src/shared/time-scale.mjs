// @ts-check
// The time axis's scale, pure: a linear map from virtual ms to px, fitted to a
// width and zoomed by a factor (1 = the whole scenario fits), with round ticks.
// No DOM: the playground's timeline and the compare page's columns draw with it
// (so their axes agree), and a node test can check it.

export const MIN_ZOOM = 1;          // the whole scenario in view
export const MAX_PX_PER_MS = 4;     // zoomed in as far as 1 ms = 4 px
export const MAX_WIDTH = 1_000_000; // px: the drawn strip never grows past this
export const ZOOM_STEP = 2;         // one press of Zoom in / out

/**
 * px per ms for a scenario `extentMs` long in `widthPx` px at `zoom` (1: fit).
 * Zooming in stops where 1 ms is MAX_PX_PER_MS px or the strip MAX_WIDTH px;
 * the fit itself is never cut.
 */
export function pxPerMs(extentMs, widthPx, zoom) {
  const fit = Math.max(widthPx, 1) / Math.max(extentMs, 1);
  const cap = Math.min(MAX_PX_PER_MS, MAX_WIDTH / Math.max(extentMs, 1));
  return Math.max(fit, Math.min(fit * Math.max(zoom, MIN_ZOOM), cap));
}

/** The zoom past which pxPerMs() stops growing for this extent and width (at least 1). */
export function maxZoom(extentMs, widthPx) {
  const fit = Math.max(widthPx, 1) / Math.max(extentMs, 1);
  return Math.max(MIN_ZOOM, Math.min(MAX_PX_PER_MS, MAX_WIDTH / Math.max(extentMs, 1)) / fit);
}

/** A round tick step (1, 2 or 5 × 10^k ms, at least 1 ms) leaving at least `minPx` between ticks. */
export function tickStep(k, minPx = 72) {
  const raw = minPx / Math.max(k, 1e-12);
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw) ?? 10 * power;
}

/** The tick times in [fromMs, toMs] (both >= 0) at `step`. */
export function ticksIn(fromMs, toMs, step) {
  const out = [];
  for (let t = Math.max(0, Math.ceil(fromMs / step) * step); t <= toMs; t += step) out.push(t);
  return out;
}
