// One-key preset scenarios: plain data (set-up + a script to play with Forward
// or Run). The core computes everything that follows from them.

const transient = (error) => ({ type: 'process', outcome: 'transient', error });
const permanent = (error) => ({ type: 'process', outcome: 'permanent', error });
const success = { type: 'process', outcome: 'success', error: '' };

export const PRESETS = [
  {
    key: 'a',
    name: 'a/b example',
    summary: 'A transient failure sends a to the tail, so b runs first.',
    scenario: {
      maxAttempts: 3,
      jobs: [{ id: 'a', payload: 'charge order 1' }, { id: 'b', payload: 'charge order 2' }],
      actions: [transient('db timeout'), success, success],
      cursor: 0,
    },
  },
  {
    key: 'p',
    name: 'Poison message',
    summary: 'One malformed message fails permanently and is quarantined; the good ones flow past it.',
    scenario: {
      maxAttempts: 3,
      jobs: [
        { id: 'ok-1', payload: '{"sku":1}' },
        { id: 'poison', payload: '{"sku":' },
        { id: 'ok-2', payload: '{"sku":2}' },
        { id: 'ok-3', payload: '{"sku":3}' },
      ],
      actions: [success, permanent('unexpected end of JSON'), success, success],
      cursor: 0,
    },
  },
  {
    key: 'y',
    name: 'Flaky dependency',
    summary: 'A dependency fails transiently for a while, then recovers within the budget.',
    scenario: {
      maxAttempts: 4,
      jobs: [{ id: 'sync-1', payload: 'crm' }, { id: 'sync-2', payload: 'crm' }, { id: 'sync-3', payload: 'crm' }],
      actions: [transient('503'), transient('503'), transient('503'), transient('503'), success, success, success],
      cursor: 0,
    },
  },
  {
    key: 'x',
    name: 'Replay after a fix',
    summary: 'A job exhausts its budget, an operator fixes the cause and replays it.',
    scenario: {
      maxAttempts: 2,
      jobs: [{ id: 'invoice', payload: 'customer 42' }, { id: 'receipt', payload: 'customer 7' }],
      actions: [transient('no tax table'), success, transient('no tax table'), { type: 'replay', id: 'invoice' }, success],
      cursor: 0,
    },
  },
];

/** The clean scenario shown when there is no (usable) link: the lesson's a/b example. */
export const DEFAULT_SCENARIO = PRESETS[0].scenario;
