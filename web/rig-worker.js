// Runs the rig off the main thread: loads the same wasm module as the page (its URLs come
// with the first message), rigs the files it is given and posts back a rigged GLB, announcing
// each stage as it begins. The page terminates this worker to cancel.

let ready = null;

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
  const { id, glue, binary, files, template, maxInfluences, skeleton } = data;
  try {
    const module = await wasm(glue, binary);
    const result = module.rigFiles(
      files.map((f) => f.name),
      files.map((f) => f.bytes),
      template,
      maxInfluences,
      skeleton ? skeleton.name : undefined,
      skeleton ? skeleton.bytes : undefined,
      (stage) => self.postMessage({ id, stage }),
    );
    self.postMessage({ id, done: true, glb: result.glb, timings: result.timings }, [result.glb.buffer]);
  } catch (e) {
    self.postMessage({ id, error: e && e.message ? e.message : String(e) });
  }
};
