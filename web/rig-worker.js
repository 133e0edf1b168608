// Runs the rig off the main thread: loads the same wasm module as the page, rigs, skins,
// animates or converts the files it is given and posts back the GLB, announcing each stage as
// it begins. The page terminates this worker to cancel. The glue and the binary are named by
// paths relative to this file, in forms bundlers (Vite, webpack) follow.

import init, * as rigkit from '../rigkit.js';
import { GPU_INIT_TIMEOUT_MS, withTimeout } from './gpu.js';

const BINARY = new URL('../rigkit_bg.wasm', import.meta.url);

let ready = null;
// The module's memory, read after a trap to tell running out of it from other failures.
let memory = null;
// The job under way: a trap inside the module's async work surfaces as an uncaught error,
// answered for this job.
let running = null;

// A trap the job's promise never sees (the module's futures run from the event loop): said
// to the page as a stopped job instead of a bare "RuntimeError: unreachable".
self.addEventListener('error', (event) => {
  if (!(event.error instanceof WebAssembly.RuntimeError) || running === null) return;
  event.preventDefault();
  postStopped(running, event.error);
});
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

// The wasm module compiled here once: this worker instantiates it, and so do its helpers.
async function compile(binary) {
  try {
    return await WebAssembly.compileStreaming(fetch(binary));
  } catch {
    // A server that does not say application/wasm: compiled from the bytes.
    return WebAssembly.compile(await (await fetch(binary)).arrayBuffer());
  }
}

async function wasm() {
  if (!ready) {
    ready = compile(BINARY).then(async (compiled) => {
      ({ memory } = await init({ module_or_path: compiled }));
      helpers = new Helpers(compiled);
      return rigkit;
    });
  }
  return ready;
}

// Workers that answer the template carry's jobs (carry-helper.js): one per core, at most
// four. They end with this worker, so cancelling a rig stops them too.
let helpers = null;

class Helpers {
  constructor(compiled) {
    const count = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
    this.alive = new Set();
    this.idle = [];
    this.queue = [];
    this.pending = new Map();
    this.jobs = 0;
    for (let i = 0; i < count; i++) {
      const helper = new Worker(new URL('carry-helper.js', import.meta.url), { type: 'module' });
      helper.postMessage({ start: { module: compiled } });
      helper.onmessage = ({ data }) => this.answered(helper, data);
      helper.onerror = (e) => this.failed(helper, e.message || 'a carry helper failed');
      this.alive.add(helper);
      this.idle.push(helper);
    }
  }

  // Each encoded job's encoded answer, in order (what the wasm's `spread` asks for).
  run(jobs) {
    if (!this.alive.size) return Promise.reject(new Error('no carry helper is running'));
    return Promise.all(jobs.map((job) => new Promise((resolve, reject) => {
      this.queue.push({ id: ++this.jobs, job, resolve, reject });
      this.next();
    })));
  }

  next() {
    while (this.idle.length && this.queue.length) {
      const helper = this.idle.pop();
      const task = this.queue.shift();
      this.pending.set(task.id, { ...task, helper });
      helper.postMessage({ id: task.id, job: task.job }, [task.job.buffer]);
    }
  }

  answered(helper, { id, answer, error }) {
    const task = this.pending.get(id);
    if (!task) return;
    this.pending.delete(id);
    if (error) task.reject(new Error(error));
    else task.resolve(answer);
    this.idle.push(helper);
    this.next();
  }

  // A helper that died takes its job with it (the rig then carries it here) and gets no more;
  // the rest go on, and when none is left the jobs still waiting are refused too.
  failed(helper, message) {
    helper.terminate();
    this.alive.delete(helper);
    this.idle = this.idle.filter((h) => h !== helper);
    for (const [id, task] of this.pending) {
      if (task.helper === helper) {
        this.pending.delete(id);
        task.reject(new Error(message));
      }
    }
    if (!this.alive.size) {
      for (const task of this.queue.splice(0)) task.reject(new Error(message));
    }
  }
}

// The operations besides rigging, each a GLB out: new weights for a rigged file's own
// skeleton, a motion added, or the rig written in another format.
const operations = {
  async skin(module, data, progress) {
    const useGpu = data.onGpu && data.method === 'neural' ? await startGpu(module) : false;
    return module.skinFiles(
      data.files.map((f) => f.name), data.files.map((f) => f.bytes),
      data.method, data.maxInfluences, useGpu, progress,
    );
  },
  async animate(module, data) {
    const { glb, name, motion, maxInfluences } = data;
    return typeof motion === 'string'
      ? module.animateRig(glb, name, motion, undefined, maxInfluences)
      : module.animateRig(glb, name, motion.name, motion.bytes, maxInfluences);
  },
  async convert(module, data) {
    return module.convertRig(data.glb, data.name, data.format, data.maxInfluences, data.boneNames, Boolean(data.correctives));
  },
};

async function rig(module, data, progress) {
  const { files, template, maxInfluences, skeleton, method, onGpu } = data;
  // Helpers carry templates side by side unless the caller asked for this worker alone.
  const spread = data.helpers === false ? undefined : (jobs) => helpers.run(jobs);
  // Only a rig that runs a network needs the GPU (Rust decides which do).
  const useGpu = onGpu && module.rigRunsNetworks(template, method || 'best', !!skeleton)
    ? await startGpu(module) : false;
  return module.rigFiles(
    files.map((f) => f.name),
    files.map((f) => f.bytes),
    template,
    maxInfluences,
    skeleton ? skeleton.name : undefined,
    skeleton ? skeleton.bytes : undefined,
    method || 'best',
    useGpu,
    progress,
    spread,
  );
}

self.onmessage = async ({ data }) => {
  // Sent while the page is idle: compile the module, start the helpers, read the template
  // library and load the networks, so the first rig starts warm.
  if (data.warm) {
    wasm().then((module) => module.warmRig(), () => {});
    return;
  }
  const { id } = data;
  running = id;
  const progress = (stage) => self.postMessage({ id, stage });
  try {
    const module = await wasm();
    const operation = operations[data.op];
    if (operation) {
      const glb = await operation(module, data, progress);
      self.postMessage({ id, done: true, glb }, [glb.buffer]);
      return;
    }
    const result = await rig(module, data, progress);
    self.postMessage(
      {
        id, done: true, glb: result.glb, timings: result.timings, device: result.device,
        recognised: result.recognised,
      },
      [result.glb.buffer],
    );
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      postStopped(id, e);
      return;
    }
    self.postMessage({ id, error: e && e.message ? e.message : String(e) });
  }
};

// Job `id` ended in a trap (out of memory, or a bug): the module's state is lost, so the page
// starts a new worker for the next job.
function postStopped(id, e) {
  self.postMessage({ id, error: stoppedMessage(e), stopped: true });
}

// Words for a trap. Rust aborts when an allocation fails; whether memory can still grow tells
// that from a bug: wasm32 addresses at most 4 GB, and the browser may allow less.
function stoppedMessage(e) {
  const megabytes = memory ? Math.round(memory.buffer.byteLength / 2 ** 20) : 0;
  let full = false;
  try {
    memory.grow(256);
  } catch {
    full = true;
  }
  return full
    ? `This file needs more memory than the page can give it (rigkit had ${megabytes} MB, all a `
      + 'browser tab lets WebAssembly use). Nothing changed. Try a lighter mesh, or the command '
      + 'line (rigkit rig), which has no such limit.'
    : `rigkit stopped on an internal error (${e.message}). Nothing changed, and it has restarted; `
      + 'please report the file.';
}
