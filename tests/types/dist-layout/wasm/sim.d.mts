// The simulations' loader (wasm/sim.mjs) where the storm lab's worker imports it from: see
// index.d.mts. wasm/index.d.ts declares loadSim and Sim; sim.mjs exports that loadSim.
export { loadSim } from '../../../../wasm/index.js';
export type { Sim } from '../../../../wasm/index.js';
