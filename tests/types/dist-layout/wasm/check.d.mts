// The checker's types (wasm/check.d.ts) where the Check page imports them from: see index.d.mts.
export * from '../../../../wasm/check.js';
