// ESLint (flat config): @eslint/js's recommended rules over the project's own JavaScript,
// with each folder's globals. `npm test` runs it (scripts/dlq.mjs); `npx eslint .` alone.
import js from '@eslint/js';
import globals from 'globals';

export default [
  // Generated, built, vendored or corpus files: not ours to lint.
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'third_party/**', 'wasm/gen/**', 'tests/fixtures/**', 'tests/brokers/corpus/**'] },
  { files: ['**/*.{js,mjs,cjs}'], ...js.configs.recommended },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    // `const { a, b, ...rest } = o` is how the code drops keys from a copy.
    rules: { 'no-unused-vars': ['error', { ignoreRestSiblings: true }] },
  },
  // The site's modules run in the page; the storm lab's worker in a Web Worker.
  { files: ['web/**'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['web/src/storm/storm-worker.mjs'], languageOptions: { globals: { ...globals.worker } } },
  // The JS API runs in Node and in the page; its command line in Node.
  { files: ['wasm/*.mjs'], languageOptions: { globals: { ...globals.browser, ...globals.node } } },
  { files: ['wasm/bin/**', 'scripts/**', 'tests/**', 'eslint.config.mjs'], languageOptions: { globals: { ...globals.node } } },
  // Page benchmarks and browser tests pass functions to page.evaluate, which run in the page.
  { files: ['scripts/bench-page.mjs', 'scripts/many-embeds.mjs', 'tests/browser/**'], languageOptions: { globals: { ...globals.browser } } },
];
