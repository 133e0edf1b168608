// Rigging off the main thread: sends files to the rig worker (rig-worker.js, which runs the
// Rust pipeline), shows each stage as it is announced, cancels by terminating the worker, and
// shows the rigged GLB it sends back.

import { $, showError } from './ui.js';

const STAGES = ['parse', 'voxelise', 'skeleton', 'skin', 'export', 'upload'];
// What each stage is doing, in a user's words.
const STAGE_LABELS = {
  parse: 'Reading the file',
  voxelise: 'Measuring the body',
  skeleton: 'Fitting the skeleton',
  skin: 'Computing skin weights',
  export: 'Writing the rig',
  upload: 'Showing the rig',
};

// "a quadruped" / "an insect": the body plan as a phrase.
const article = (word) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
// The library template's name without its prefix: "rig-fox" → "fox".
const templateName = (template) => template.replace(/^rig-/, '');

function showProgress(stage) {
  $('progress').hidden = false;
  $('progress').dataset.stage = stage;
  $('progress-stage').textContent = `${STAGE_LABELS[stage] || stage}…`;
  $('progress-bar').value = Math.max(0, STAGES.indexOf(stage));
}

export function setupRigClient(ctx) {
  const { app } = ctx;
  // The worker (started when the page is idle or on first use, terminated to cancel) and the
  // job it is running.
  let worker = null;
  let jobs = 0;
  let cancelRig = null;
  // The template chooser's "skeleton file…": a rigged GLB or a BVH whose skeleton is adapted
  // to the mesh on the next rig.
  let skeletonFile = null;

  function startWorker() {
    if (!worker) worker = new Worker(new URL('rig-worker.js', import.meta.url), { type: 'module' });
    return worker;
  }

  // Once the page is idle the worker starts (module compiled, helpers started, templates read),
  // so that the first rig takes as long as the next.
  const idle = window.requestIdleCallback || ((f) => setTimeout(f, 500));
  idle(() => {
    startWorker().postMessage({ warm: true });
  });

  // Runs one job in the worker; resolves to its `{ glb, timings, device, recognised }`.
  function runInWorker(message) {
    startWorker();
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
        else if (data.error) {
          // A worker whose module trapped is replaced on the next job.
          if (data.stopped) {
            worker.terminate();
            worker = null;
          }
          reject(new Error(data.error));
        }
        else resolve(data);
      };
      worker.onerror = (e) => reject(new Error(e.message || 'the rig worker failed'));
      worker.postMessage({ id, ...message });
    }).finally(() => { cancelRig = null; });
  }

  // Rigs the files (a new skeleton and skin weights) and shows the result. Rejects, with a
  // banner, on failure or cancel; what was shown before stays.
  async function rigFiles(files, options = {}) {
    const chosen = options.template || $('template').value;
    // A skeleton file given to the API ({ name, bytes }) or picked in the template chooser.
    const skeleton = options.skeleton || (chosen === 'file' ? skeletonFile : null);
    if (chosen === 'file' && !skeleton) {
      showError('Pick a skeleton file first (Advanced rig settings: Skeleton)');
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
        helpers: options.helpers !== false,
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
    // What "auto" saw and what it fitted, in words; the numbers in the tooltip and the API.
    const r = result.recognised;
    const joints = app.jointNames().length;
    const seconds = `${(total / 1000).toFixed(1)} s`;
    let said;
    const plan = r ? r.plan.replace(/-/g, ' ') : '';
    if (r && r.template) said = `Recognised ${article(plan)} and fitted the ${templateName(r.template)} skeleton`;
    else if (r && r.plan === 'other') said = 'Not a body plan with a template, so a free-form skeleton';
    else if (r) said = `Looks like ${article(plan)}, but no template fitted well, so a free-form skeleton`;
    else if (skeleton) said = `Fitted the skeleton of ${skeleton.name}`;
    else said = `Fitted ${template === 'free' ? 'a free-form' : `the ${templateName(template)}`} skeleton`;
    $('rig-summary').textContent = `${said}: ${joints} joints, rigged in ${seconds}. Check it next.`;
    $('status-rig').textContent = `rigged in ${seconds}`;
    $('status-rig').title =
      `${r ? `recognised ${r.plan} ${r.confidence.toFixed(2)}; ` : ''}${template}, ${by}: voxelise ${t.voxelise.toFixed(0)} ms, skeleton ${t.skeleton.toFixed(0)} ms, skin ${t.skin.toFixed(0)} ms`;
    $('rig-button').textContent = 'Rig it again';
    ctx.showStep('check');
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
    $('template').options[$('template').options.length - 1].textContent = `my skeleton: ${file.name}`;
  });
  $('rig-button').addEventListener('click', () => {
    if (ctx.shownFiles) rigFiles(ctx.shownFiles).catch(() => {});
  });
  $('progress-cancel').addEventListener('click', () => { if (cancelRig) cancelRig(); });

  ctx.rigFiles = rigFiles;
}
