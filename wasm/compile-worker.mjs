// A dedicated worker that compiles one .wasm off its page's main thread
// (instantiate.mjs). The page posts the file's URL; the worker answers
// { module }, a WebAssembly.Module (a dedicated worker may post one to its
// page), or { error }, the reason as text.
self.onmessage = async ({ data: url }) => {
  try {
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    self.postMessage({ module: await WebAssembly.compileStreaming(response) });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
