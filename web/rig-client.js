// Rigging off the main thread: sends files to the rig worker (rig-worker.js, which runs the
// Rust pipeline), shows each stage as it is announced, cancels by terminating the worker, and
// shows the rigged GLB it sends back.

import { $, showError } from './ui.js';

const STAGES = ['parse', 'voxelise', 'skeleton', 'skin', 'export', 'upload'];

// The URLs of the page's own wasm module (trunk preloads both), for the worker to load.
function moduleUrls() {
  const glue = document.querySelector('link[rel="modulepreload"][href$=".js"]');
  const binary = document.querySelector('link[rel="preload"][href$=".wasm"]');
  if (!glue || !binary) throw new Error('cannot find the wasm module to start the rig worker');
  return {
    glue: new URL(glue.getAttribute('href'), location.href).href,
    binary: new URL(binary.getAttribute('href'), location.href).href,
  };
}

function showProgress(stage) {
  $('progress').hidden = false;
  $('progress-stage').textContent = `Rigging: ${stage}…`;
  $('progress-bar').value = Math.max(0, STAGES.indexOf(stage));
}

export function setupRigClient(ctx) {
  // The worker (created on first use, terminated to cancel) and the job it is running.
  let worker = null;
  let jobs = 0;
  let cancelRig = null;
  // The template chooser's "skeleton file…": a rigged GLB or a BVH whose skeleton is adapted
  // to the mesh on the next rig.
  let skeletonFile = null;

  // Runs one job in the worker; resolves to its `{ glb, timings, device, recognised }`.
  function runInWorker(message) {
    if (!worker) worker = new Worker(new URL('rig-worker.js', import.meta.url), { type: 'module' });
    const id = ++jobs;
    return new Promise((resolve, reject) => {
      cancelRig = () => {
        worker.terminate();
        worker = null;
        reject(new Error('Rigging was cancelled'));
      };
      worker.onmessage = ({ data }) => {
        if (data.id !== id) return;
        if (data.stage) showProgress(data.stage);
        else if (data.error) reject(new Error(data.error));
        else resolve(data);
      };
      worker.onerror = (e) => reject(new Error(e.message || 'the rig worker failed'));
      worker.postMessage({ id, ...moduleUrls(), ...message });
    }).finally(() => { cancelRig = null; });
  }

  // Rigs the files (a new skeleton and skin weights) and shows the result. Rejects, with a
  // banner, on failure or cancel; what was shown before stays.
  async function rigFiles(files, options = {}) {
    const chosen = options.template || $('template').value;
    // A skeleton file given to the API ({ name, bytes }) or picked in the template chooser.
    const skeleton = options.skeleton || (chosen === 'file' ? skeletonFile : null);
    if (chosen === 'file' && !skeleton) {
      showError('Pick a skeleton file first (Template: skeleton file…)');
      throw new Error('Pick a skeleton file first');
    }
    const template = skeleton ? `file: ${skeleton.name}` : chosen;
    const maxInfluences = Number(options.maxInfluences || $('max-influences').value);
    const method = options.method || $('method').value;
    const started = performance.now();
    showProgress('parse');
    let result;
    try {
      result = await runInWorker({
        files: files.map((f) => ({ name: String(f.name), bytes: f.bytes.slice() })),
        template: skeleton ? 'auto' : template,
        maxInfluences,
        method,
        onGpu: ctx.backend.kind === 'webgpu',
        skeleton: skeleton ? { name: skeleton.name, bytes: skeleton.bytes.slice() } : null,
      });
    } catch (e) {
      $('progress').hidden = true;
      showError(e.message);
      throw e;
    }
    showProgress('upload');
    const base = String(files[0].name).replace(/\.[^.]*$/, '');
    await ctx.loadFiles([{ name: `${base}-rigged.glb`, bytes: result.glb }], { rig: false });
    $('progress').hidden = true;
    const t = result.timings;
    const total = performance.now() - started;
    const by = result.device ? `${method}, networks on ${result.device === 'webgpu' ? 'WebGPU' : 'CPU'}` : method;
    // What "auto" saw, and what it fitted: the user can pick another template and rig again.
    const r = result.recognised;
    const seen = r
      ? `recognised ${r.plan} ${r.confidence.toFixed(2)}, ${r.template ? `fitted ${r.template}` : 'free-form skeleton'}; `
      : '';
    $('status-rig').textContent =
      `${seen}rigged (${template}, ${by}): voxelise ${t.voxelise.toFixed(0)} ms, skeleton ${t.skeleton.toFixed(0)} ms, skin ${t.skin.toFixed(0)} ms, total ${total.toFixed(0)} ms`;
    ctx.current = {
      ...ctx.current,
      rigged: true,
      template,
      method,
      device: result.device,
      recognised: r || null,
      timings: { ...t, totalMs: total },
    };
    return ctx.current;
  }

  $('template').addEventListener('change', (e) => {
    if (e.target.value === 'file') $('skeleton-input').click();
  });
  $('skeleton-input').addEventListener('change', async (e) => {
    const [file] = e.target.files;
    e.target.value = '';
    if (!file) {
      $('template').value = 'auto';
      return;
    }
    skeletonFile = { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
    $('template').options[$('template').options.length - 1].textContent = `skeleton: ${file.name}`;
  });
  $('rig-button').addEventListener('click', () => {
    if (ctx.shownFiles) rigFiles(ctx.shownFiles).catch(() => {});
  });
  $('progress-cancel').addEventListener('click', () => { if (cancelRig) cancelRig(); });

  ctx.rigFiles = rigFiles;
}
