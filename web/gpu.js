// Starting burn's WebGPU runtime, shared by the page and its rig worker so both wait the same:
// some drivers never answer requestAdapter, so every step has a timeout and the CPU backend
// is the fallback.

export const ADAPTER_TIMEOUT_MS = 5000;
export const GPU_INIT_TIMEOUT_MS = 20000;

// `promise`, or a rejection naming `what` after `ms` milliseconds.
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// Picks the page's compute backend once: burn's WebGPU runtime when the browser yields an
// adapter, else the CPU backend, with the reason.
export async function chooseBackend(wasm) {
  const cpu = (reason) => ({ kind: 'cpu', label: 'CPU', reason });
  if (!navigator.gpu) return cpu('this browser has no WebGPU');
  let adapter = null;
  try {
    adapter = await withTimeout(navigator.gpu.requestAdapter(), ADAPTER_TIMEOUT_MS, 'requestAdapter');
  } catch (e) {
    return cpu(e.message);
  }
  if (!adapter) return cpu('no WebGPU adapter');
  try {
    const name = await withTimeout(wasm.initWebGpu(), GPU_INIT_TIMEOUT_MS, 'WebGPU start-up');
    const info = adapter.info || {};
    const label = name || [info.vendor, info.architecture].filter(Boolean).join(' ') || 'adapter';
    return { kind: 'webgpu', label: `WebGPU: ${label}`, reason: null };
  } catch (e) {
    return cpu(e.message || String(e));
  }
}
