// The JS API's types where web/src's modules import it from: '../../wasm/index.mjs' is dist/wasm/
// from dist/src/<folder>/ (scripts/site.mjs), web/wasm/ in the source tree, which tsconfig.web.json's
// rootDirs map here. TypeScript looks for index.d.mts beside an index.mjs, never index.d.ts.
export * from '../../../../wasm/index.js';
