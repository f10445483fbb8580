// Instantiating one of the lab's Emscripten modules with its .wasm, wherever the
// API runs. In Node >= 20 the .wasm is read from disk. A page compiles it in a
// dedicated worker (compile-worker.mjs) and instantiates the compiled module
// itself: a streaming compile on the page's own thread cost it two or three
// tasks of 25–60 ms on the 2-core test machine (four times that on Lighthouse's
// simulated phone), the longest of a playground's start-up but for its first
// layout. A worker (the storm lab's), or a page whose worker cannot start
// (the module is on another origin, as in an embed, or a Content-Security-Policy
// forbids workers), compiles it where it runs.

/**
 * Instantiates an Emscripten module (`create`, its factory) with its .wasm at
 * `wasmUrl`. Rejects with an Error naming the file when it cannot be fetched or
 * compiled; the factory is never called then.
 */
export async function instantiate(create, wasmUrl) {
  if (typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined') {
    const { readFile } = await import('node:fs/promises');
    return create({ wasmBinary: await readFile(wasmUrl) });
  }
  const compiled = await compileOffThread(wasmUrl).catch(() => compileHere(wasmUrl));
  let instantiateFailed;
  const failed = new Promise((resolve, reject) => { instantiateFailed = reject; });
  // Emscripten calls instantiateWasm with the imports it built, and waits for
  // receiveInstance; a failure there would leave its promise pending, so it rejects ours.
  return Promise.race([failed, create({
    locateFile: () => wasmUrl.href,
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(compiled, imports).then((instance) => receiveInstance(instance, compiled), instantiateFailed);
      return {};
    },
  })]);
}

/** The compiled module from a dedicated worker; rejects where a page cannot start one for `wasmUrl`. */
function compileOffThread(wasmUrl) {
  return new Promise((resolve, reject) => {
    const workerUrl = new URL('./compile-worker.mjs', import.meta.url);
    // A worker's script must be on the page's origin: an embed's module is not.
    if (typeof document === 'undefined' || typeof Worker !== 'function' || workerUrl.origin !== globalThis.location?.origin) {
      reject(new Error('no worker here'));
      return;
    }
    const worker = new Worker(workerUrl, { type: 'module' });
    const done = (settle, value) => {
      worker.terminate();
      settle(value);
    };
    worker.onmessage = ({ data }) => (data?.module instanceof WebAssembly.Module
      ? done(resolve, data.module) : done(reject, new Error(String(data?.error))));
    worker.onerror = (event) => {
      event.preventDefault();
      done(reject, new Error(event.message));
    };
    worker.postMessage(wasmUrl.href);
  });
}

/**
 * Compiles the .wasm on this thread: streaming, or from its bytes where the server
 * does not send it as application/wasm (streaming requires that type).
 */
async function compileHere(wasmUrl) {
  const fetched = () => fetch(wasmUrl, { credentials: 'same-origin' }).then((response) => {
    if (!response.ok) throw new Error(`${wasmUrl.href} answered HTTP ${response.status}`);
    return response;
  });
  try {
    return await WebAssembly.compileStreaming(fetched());
  } catch (error) {
    if (!(error instanceof TypeError) || /HTTP \d/.test(error.message)) throw error;
    return WebAssembly.compile(await (await fetched()).arrayBuffer());
  }
}
