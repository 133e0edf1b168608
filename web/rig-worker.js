// Runs the rig off the main thread: loads the same wasm module as the page (its URLs come
// with the first message), rigs the files it is given and posts back a rigged GLB, announcing
// each stage as it begins. The page terminates this worker to cancel.

import { GPU_INIT_TIMEOUT_MS, withTimeout } from './gpu.js';

let ready = null;
// Whether this worker has its own WebGPU device for the networks: tried once, on the first
// neural rig the page asks to run on the GPU; a browser without an adapter stays on the CPU.
let gpu = null;

async function startGpu(module) {
  if (!gpu) {
    gpu = withTimeout(module.initWebGpu(), GPU_INIT_TIMEOUT_MS, 'WebGPU start-up')
      .then(() => true, () => false);
  }
  return gpu;
}

async function wasm(glue, binary) {
  if (!ready) {
    ready = import(glue).then(async (module) => {
      await module.default({ module_or_path: binary });
      return module;
    });
  }
  return ready;
}

self.onmessage = async ({ data }) => {
  const { id, glue, binary, files, template, maxInfluences, skeleton, method, onGpu } = data;
  try {
    const module = await wasm(glue, binary);
    // Only a rig that runs a network needs the GPU (Rust decides which do).
    const useGpu = onGpu && module.rigRunsNetworks(template, method || 'best', !!skeleton)
      ? await startGpu(module) : false;
    const result = await module.rigFiles(
      files.map((f) => f.name),
      files.map((f) => f.bytes),
      template,
      maxInfluences,
      skeleton ? skeleton.name : undefined,
      skeleton ? skeleton.bytes : undefined,
      method || 'best',
      useGpu,
      (stage) => self.postMessage({ id, stage }),
    );
    self.postMessage(
      {
        id, done: true, glb: result.glb, timings: result.timings, device: result.device,
        recognised: result.recognised,
      },
      [result.glb.buffer],
    );
  } catch (e) {
    self.postMessage({ id, error: e && e.message ? e.message : String(e) });
  }
};
