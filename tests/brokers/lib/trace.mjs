// The neutral trace a broker run (or the lab under a system mode) produces, and a pure
// comparison of an expected trace with an observed one.
//
//   trace = {
//     deliveries: [{ job, count }],   // every delivery in order; count = the broker's own counter on it
//                                     //   (x-delivery-count, attemptsMade, retry_count; 0 when absent)
//     delays: { job: [ms, …] },       // gaps between a job's consecutive runs
//     final: { job: 'completed' | 'dlq' | 'dropped' | 'waiting' },
//     dlq: { job: { field: value } }, // the dead-letter entry, in the broker's own field names
//   }
//
// In `expected`:
//   - a delay is a number (met within tolerance.delayMs = { below, above }) or [min, max]
//     (inclusive; for jitter), also widened by the tolerance;
//   - a dlq field value may be a matcher string: '$any', '$number', '$string', '$timestamp'
//     (a number or Date after 2020), '$absent'; any other value must be deep-equal;
//   - only the dlq fields named in expected are compared; every job in either trace's
//     `final` is compared.

const MATCHERS = {
  $any: (v) => v !== undefined,
  $number: (v) => typeof v === 'number' && Number.isFinite(v),
  $string: (v) => typeof v === 'string',
  $timestamp: (v) => {
    const ms = v instanceof Date ? v.getTime() : typeof v === 'number' ? (v < 1e11 ? v * 1000 : v) : NaN;
    return ms > Date.UTC(2020, 0, 1);
  },
  $absent: (v) => v === undefined,
};

const show = (v) => (v === undefined ? 'nothing' : JSON.stringify(v));
const showDelivery = (d) => (d ? `${d.job}#${d.count}` : 'no delivery');

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => deepEqual(a[k], b[k]));
}

// Deep equality in which a matcher string anywhere in `expected` stands for a kind of value.
function valueMatches(expected, observed) {
  if (typeof expected === 'string' && Object.hasOwn(MATCHERS, expected)) return MATCHERS[expected](observed);
  if (typeof expected !== 'object' || expected === null) return deepEqual(expected, observed);
  if (typeof observed !== 'object' || observed === null || Array.isArray(expected) !== Array.isArray(observed)) return false;
  const keys = Object.keys(expected);
  const present = Object.keys(observed).filter((k) => observed[k] !== undefined);
  if (present.some((k) => !keys.includes(k))) return false;
  return keys.every((k) => valueMatches(expected[k], observed[k]));
}

function delayMatches(expected, observed, { below = 0, above = 0 }) {
  if (typeof observed !== 'number') return false;
  const [min, max] = Array.isArray(expected) ? expected : [expected, expected];
  return observed >= min - below && observed <= max + above;
}

function difference(path, expected, observed, message) {
  return { path, expected, observed, message: `${path}: ${message}` };
}

// Returns null when `observed` meets `expected`, else the first difference:
// { path, expected, observed, message }. Order of checks: deliveries, final, dlq, delays.
export function compareTraces(expected, observed, tolerance = {}) {
  const delayTolerance = tolerance.delayMs ?? { below: 0, above: 0 };
  const ed = expected.deliveries ?? [];
  const od = observed.deliveries ?? [];
  for (let i = 0; i < Math.max(ed.length, od.length); i++) {
    const e = ed[i];
    const o = od[i];
    if (!e || !o || e.job !== o.job || e.count !== o.count) {
      return difference(`deliveries[${i}]`, e, o, `expected ${showDelivery(e)}, observed ${showDelivery(o)}` +
        ` (expected ${ed.map(showDelivery).join(' ')}; observed ${od.map(showDelivery).join(' ')})`);
    }
  }
  const ef = expected.final ?? {};
  const of = observed.final ?? {};
  for (const job of [...new Set([...Object.keys(ef), ...Object.keys(of)])].sort()) {
    if (ef[job] !== of[job]) {
      return difference(`final.${job}`, ef[job], of[job], `expected ${show(ef[job])}, observed ${show(of[job])}`);
    }
  }
  const eq = expected.dlq ?? {};
  const oq = observed.dlq ?? {};
  for (const job of Object.keys(eq).sort()) {
    if (oq[job] === undefined) return difference(`dlq.${job}`, eq[job], undefined, 'expected a dead-letter entry, observed none');
    for (const field of Object.keys(eq[job])) {
      if (!valueMatches(eq[job][field], oq[job][field])) {
        return difference(`dlq.${job}.${field}`, eq[job][field], oq[job][field],
          `expected ${show(eq[job][field])}, observed ${show(oq[job][field])}`);
      }
    }
  }
  for (const job of Object.keys(oq).sort()) {
    if (eq[job] === undefined) return difference(`dlq.${job}`, undefined, oq[job], 'observed a dead-letter entry, expected none');
  }
  const edl = expected.delays ?? {};
  const odl = observed.delays ?? {};
  for (const job of Object.keys(edl).sort()) {
    const e = edl[job];
    const o = odl[job] ?? [];
    if (e.length !== o.length) {
      return difference(`delays.${job}`, e, o, `expected ${e.length} gaps, observed ${o.length} (${show(o)})`);
    }
    for (let i = 0; i < e.length; i++) {
      if (!delayMatches(e[i], o[i], delayTolerance)) {
        return difference(`delays.${job}[${i}]`, e[i], o[i], `expected ${show(e[i])} ms` +
          ` (tolerance -${delayTolerance.below ?? 0}/+${delayTolerance.above ?? 0}), observed ${show(o[i])} ms`);
      }
    }
  }
  return null;
}

// Gaps between each job's consecutive deliveries, from deliveries carrying `at` (ms).
export function delaysFrom(deliveries) {
  const last = {};
  const delays = {};
  for (const { job, at } of deliveries) {
    if (last[job] !== undefined) (delays[job] ??= []).push(Math.round(at - last[job]));
    last[job] = at;
  }
  return delays;
}
