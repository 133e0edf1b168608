// The page shell: wires the DOM (drop, file picker, pointer input, status bar) to the wasm
// module and exposes the same operations as `window.rigkit` for scripting and tests.
// All logic lives in Rust; this file only moves bytes and events.

const SAMPLE = { url: 'web/samples/human-zombie.glb', name: 'human-zombie.glb' };
const ADAPTER_TIMEOUT_MS = 5000;
const GPU_INIT_TIMEOUT_MS = 20000;

const $ = (id) => document.getElementById(id);

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function wasmReady() {
  if (window.wasmBindings) return Promise.resolve(window.wasmBindings);
  return new Promise((resolve) =>
    addEventListener('TrunkApplicationStarted', () => resolve(window.wasmBindings), { once: true }));
}

function showError(message) {
  $('error-text').textContent = message;
  $('error-banner').hidden = false;
}

function clearError() {
  $('error-banner').hidden = true;
}

// Picks the compute backend once: burn's WebGPU runtime when the browser yields an adapter,
// else the CPU backend. Every step has a timeout: some drivers never answer requestAdapter.
async function chooseBackend(wasm) {
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

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

async function main() {
  const wasm = await wasmReady();
  const canvas = $('viewport');
  // Created here so the page chooses the options; the wasm side picks up the same context.
  canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
  const app = new wasm.App(canvas);

  let dirty = true;
  const redraw = () => { dirty = true; };

  // Motion playback: the clip shown, where in it, how fast, and whether it runs.
  const playback = { index: null, duration: 0, time: 0, speed: 1, playing: false, last: performance.now() };
  function showTime() {
    app.pose(playback.time);
    $('timeline').value = String(playback.duration > 0 ? playback.time / playback.duration : 0);
    $('time-label').textContent = `${playback.time.toFixed(2)} s`;
    redraw();
  }
  const frame = () => {
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const height = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      dirty = true;
    }
    const now = performance.now();
    if (playback.playing && playback.duration > 0) {
      playback.time = (playback.time + ((now - playback.last) / 1000) * playback.speed) % playback.duration;
      showTime();
    }
    playback.last = now;
    if (dirty) {
      dirty = false;
      app.render(width, height);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  // Orbit with the primary button, pan with the secondary (or shift), zoom with the wheel.
  // On a joint, the primary button selects it (its weights are painted) and, in edit mode,
  // drags it in the plane facing the camera, or in pose mode turns it.
  let drag = null;
  let selected = -1;
  const pick = (e) => app.pickJoint(e.offsetX, e.offsetY, canvas.clientWidth, canvas.clientHeight);
  canvas.addEventListener('pointerdown', (e) => {
    const mode = $('mode').value;
    const joint = e.button === 0 && !e.shiftKey ? pick(e) : -1;
    drag = { x: e.clientX, y: e.clientY, pan: e.button !== 0 || e.shiftKey, joint: -1 };
    if (joint >= 0) {
      selectJoint(joint);
      if (mode === 'edit') {
        app.beginDrag(joint);
        drag.joint = joint;
      } else if (mode === 'pose') {
        drag.joint = joint;
        app.showGizmo(joint);
      }
    }
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) {
      const joint = pick(e);
      const tip = $('joint-tip');
      tip.hidden = joint < 0;
      if (joint >= 0) {
        tip.textContent = app.jointNames()[joint];
        tip.style.left = `${e.offsetX + 12}px`;
        tip.style.top = `${e.offsetY + 12}px`;
      }
      return;
    }
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    drag.x = e.clientX;
    drag.y = e.clientY;
    const mode = $('mode').value;
    if (drag.joint >= 0 && mode === 'edit') app.dragJoint(dx, dy, canvas.clientHeight);
    else if (drag.joint >= 0 && mode === 'pose') app.rotateJoint(drag.joint, dx, dy);
    else if (drag.pan) app.pan(dx, dy);
    else app.orbit(dx, dy);
    redraw();
  });
  canvas.addEventListener('pointerup', () => {
    if (drag && drag.joint >= 0 && $('mode').value === 'edit') {
      try {
        const ms = app.endDrag();
        $('status-edit').textContent = `joint moved, re-skinned in ${ms.toFixed(0)} ms`;
        afterEdit();
      } catch (err) {
        showError(err.message || String(err));
      }
    }
    drag = null;
  });
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    app.zoom(-Math.sign(e.deltaY));
    redraw();
  }, { passive: false });
  const frameModel = () => { app.frame(); redraw(); };
  $('frame-button').addEventListener('click', frameModel);
  canvas.addEventListener('dblclick', frameModel);
  addEventListener('keydown', (e) => { if (e.key === 'f' || e.key === 'F') frameModel(); });
  $('error-close').addEventListener('click', clearError);

  const backend = await chooseBackend(wasm);
  $('status-backend').textContent = backend.label;
  $('status-backend').title = backend.reason || '';

  let current = null;

  // The rig worker (created on first use, terminated to cancel) and the job it is running.
  let worker = null;
  let jobs = 0;
  let cancelRig = null;
  const STAGES = ['parse', 'voxelise', 'skeleton', 'skin', 'export', 'upload'];

  function showProgress(stage) {
    $('progress').hidden = false;
    $('progress-stage').textContent = `Rigging: ${stage}…`;
    $('progress-bar').value = Math.max(0, STAGES.indexOf(stage));
  }

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

  // Selects a joint: its weights are painted and the edit tools act on it.
  function selectJoint(joint) {
    selected = joint;
    $('weights-joint').value = String(joint);
    app.showWeights(joint);
    $('legend').hidden = joint < 0;
    const parents = app.jointParents();
    const select = $('parent-joint');
    select.replaceChildren(new Option('(parent…)', ''));
    app.jointNames().forEach((name, i) => { if (i !== joint) select.add(new Option(`parent: ${name}`, String(i))); });
    select.value = joint >= 0 && parents[joint] >= 0 ? String(parents[joint]) : '';
    redraw();
  }

  // After any edit: the joint list, the motions and the undo buttons follow the rig.
  function afterEdit() {
    const keep = selected;
    listJoints();
    listMotions();
    const count = app.jointNames().length;
    selectJoint(keep < count ? keep : -1);
    current = { ...current, joints: count };
  }

  // Runs one edit, showing any error in the banner (and rethrowing it for scripts).
  function editRig(run) {
    try {
      const result = run();
      clearError();
      afterEdit();
      return result;
    } catch (e) {
      const message = e && e.message ? e.message : String(e);
      showError(message);
      throw new Error(message);
    }
  }

  // Fills the joint chooser of the weight heatmap.
  function listJoints() {
    const select = $('weights-joint');
    select.replaceChildren(new Option('(materials)', '-1'));
    app.jointNames().forEach((name, i) => select.add(new Option(name, String(i))));
    $('legend').hidden = true;
  }

  // Rigs the files in the worker (a new skeleton and skin weights) and shows the result.
  // Rejects, with a banner, on failure or cancel; what was shown before stays.
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
    if (!worker) worker = new Worker(new URL('rig-worker.js', import.meta.url), { type: 'module' });
    const id = ++jobs;
    const started = performance.now();
    showProgress('parse');
    let result;
    try {
      result = await new Promise((resolve, reject) => {
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
        worker.postMessage({
          id,
          ...moduleUrls(),
          files: files.map((f) => ({ name: String(f.name), bytes: f.bytes.slice() })),
          template: skeleton ? 'auto' : template,
          maxInfluences,
          method,
          onGpu: backend.kind === 'webgpu',
          skeleton: skeleton ? { name: skeleton.name, bytes: skeleton.bytes.slice() } : null,
        });
      });
    } catch (e) {
      $('progress').hidden = true;
      showError(e.message);
      throw e;
    } finally {
      cancelRig = null;
    }
    showProgress('upload');
    const base = String(files[0].name).replace(/\.[^.]*$/, '');
    const info = await loadFiles([{ name: `${base}-rigged.glb`, bytes: result.glb }], { rig: false });
    $('progress').hidden = true;
    const t = result.timings;
    const total = performance.now() - started;
    const by = result.device ? `${method}, networks on ${result.device === 'webgpu' ? 'WebGPU' : 'CPU'}` : method;
    $('status-rig').textContent =
      `rigged (${template}, ${by}): voxelise ${t.voxelise.toFixed(0)} ms, skeleton ${t.skeleton.toFixed(0)} ms, skin ${t.skin.toFixed(0)} ms, total ${total.toFixed(0)} ms`;
    current = {
      ...current,
      rigged: true,
      template,
      method,
      device: result.device,
      timings: { ...t, totalMs: total },
    };
    return current;
  }

  // Imports files, shows the character, and runs the per-vertex feature pass on the active
  // backend; a mesh without a skeleton is then rigged. Throws (and shows a banner) on a bad
  // file; what was shown before stays.
  let shownFiles = null;
  async function loadFiles(files, { rig = true } = {}) {
    if (!Array.isArray(files) || files.length === 0 || files.some((f) => !(f.bytes instanceof Uint8Array))) {
      throw new TypeError('rigkit.loadFiles expects [{ name, bytes: Uint8Array }, …]');
    }
    let info;
    try {
      info = app.loadFiles(files.map((f) => String(f.name)), files.map((f) => f.bytes));
    } catch (e) {
      const message = e && e.message ? e.message : String(e);
      showError(message);
      throw new Error(message);
    }
    clearError();
    redraw();
    $('status-file').textContent =
      `${info.name}: ${info.vertices.toLocaleString()} vertices, ${info.joints} joints`;
    const t0 = performance.now();
    const features = await wasm.vertexFeatures(app.positions(), backend.kind === 'webgpu');
    const ms = performance.now() - t0;
    $('status-compute').textContent =
      `features ${features.length / 4}×4 in ${ms.toFixed(0)} ms (${backend.kind === 'webgpu' ? 'WebGPU' : 'CPU'})`;
    current = { ...info, backend: backend.label, featureMs: ms };
    shownFiles = files;
    listJoints();
    listMotions();
    if (rig && info.joints === 0) return rigFiles(files);
    return current;
  }

  const load = (bytes, name) => loadFiles([{ name, bytes }]);

  $('mode').addEventListener('change', (e) => {
    const mode = e.target.value;
    $('edit-tools').hidden = mode !== 'edit';
    $('reset-pose').hidden = mode !== 'pose';
    if (mode !== 'pose') app.resetPose();
    else if (selected >= 0) app.showGizmo(selected);
    if (mode === 'edit') app.prepareEdits();
    redraw();
  });
  const edits = {
    moveJoint: (joint, x, y, z) => editRig(() => app.moveJoint(joint, x, y, z)),
    addJoint: (parent, name = '') => editRig(() => app.addJoint(parent, name)),
    deleteJoint: (joint) => editRig(() => app.deleteJoint(joint)),
    renameJoint: (joint, name) => editRig(() => app.renameJoint(joint, name)),
    reparentJoint: (joint, parent) => editRig(() => app.reparentJoint(joint, parent)),
    undo: () => editRig(() => app.undo()),
    redo: () => editRig(() => app.redo()),
  };
  const needSelection = () => {
    if (selected < 0) showError('Select a joint first: click it in the viewport');
    return selected >= 0;
  };
  $('add-joint').addEventListener('click', () => {
    if (needSelection()) { try { selectJoint(edits.addJoint(selected)); } catch (_) { /* banner */ } }
  });
  $('delete-joint').addEventListener('click', () => {
    if (needSelection()) { try { edits.deleteJoint(selected); selectJoint(-1); } catch (_) { /* banner */ } }
  });
  $('rename-joint').addEventListener('click', () => {
    if (!needSelection()) return;
    const name = prompt('New name', app.jointNames()[selected]);
    if (name !== null) { try { edits.renameJoint(selected, name); } catch (_) { /* banner */ } }
  });
  $('parent-joint').addEventListener('change', (e) => {
    if (e.target.value === '' || !needSelection()) return;
    try { selectJoint(edits.reparentJoint(selected, Number(e.target.value))); } catch (_) { /* banner */ }
  });
  $('undo').addEventListener('click', () => { try { edits.undo(); } catch (_) { /* banner */ } });
  $('redo').addEventListener('click', () => { try { edits.redo(); } catch (_) { /* banner */ } });
  $('reset-pose').addEventListener('click', () => { app.resetPose(); redraw(); });
  addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.target instanceof HTMLInputElement) return;
    const key = e.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      e.preventDefault();
      try { if (key === 'y' || e.shiftKey) edits.redo(); else edits.undo(); } catch (_) { /* banner */ }
    }
  });

  // The motion picker: the character's clips, then the motions rigkit can make for it.
  function listMotions() {
    const select = $('motion');
    select.replaceChildren(new Option('(rest pose)', ''));
    for (const m of app.motions()) {
      const label = m.kind === 'clip' ? `${m.name} (clip, ${m.duration.toFixed(1)} s)` : `${m.name} (generated)`;
      select.add(new Option(label, m.kind === 'clip' ? `clip:${m.index}` : `gen:${m.name}`));
    }
    playback.index = null;
    playback.playing = false;
    $('play-button').textContent = 'Play';
    $('play-button').disabled = true;
    $('timeline').disabled = true;
  }

  // Starts clip `index` of the character from its beginning.
  function playClip(index) {
    playback.duration = app.play(index);
    playback.index = index;
    playback.time = 0;
    playback.playing = true;
    $('play-button').textContent = 'Pause';
    $('play-button').disabled = false;
    $('timeline').disabled = false;
    showTime();
    return { index, duration: playback.duration };
  }

  // Runs `make` (which adds a clip and returns its index), relists, and plays the new clip.
  function addMotion(make) {
    let index;
    try {
      index = make();
    } catch (e) {
      const message = e && e.message ? e.message : String(e);
      showError(message);
      throw new Error(message);
    }
    clearError();
    listMotions();
    $('motion').value = `clip:${index}`;
    return playClip(index);
  }
  const animate = (name) => addMotion(() => app.animate(name));
  const retargetClip = (bytes, name) => addMotion(() => app.retargetFile(bytes, name));

  function restPose() {
    playback.index = null;
    playback.playing = false;
    app.restPose();
    $('motion').value = '';
    $('play-button').textContent = 'Play';
    $('play-button').disabled = true;
    $('timeline').disabled = true;
    $('time-label').textContent = '0.00 s';
    redraw();
  }

  $('motion').addEventListener('change', (e) => {
    const value = e.target.value;
    try {
      if (value === '') restPose();
      else if (value.startsWith('clip:')) playClip(Number(value.slice(5)));
      else animate(value.slice(4));
    } catch (_) {
      // Shown in the banner.
    }
  });
  $('play-button').addEventListener('click', () => {
    if (playback.index === null) return;
    playback.playing = !playback.playing;
    $('play-button').textContent = playback.playing ? 'Pause' : 'Play';
  });
  $('timeline').addEventListener('input', (e) => {
    playback.time = Number(e.target.value) * playback.duration;
    showTime();
  });
  $('speed').addEventListener('change', (e) => { playback.speed = Number(e.target.value); });
  $('clip-input').addEventListener('change', async (e) => {
    const [file] = e.target.files;
    e.target.value = '';
    if (!file) return;
    try {
      retargetClip(new Uint8Array(await file.arrayBuffer()), file.name);
    } catch (_) {
      // Shown in the banner.
    }
  });

  // The template chooser's "skeleton file…": pick a rigged GLB or a BVH whose skeleton is
  // adapted to the mesh on the next rig.
  let skeletonFile = null;
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
  // Sample characters: fetched from the page's own folder; unrigged ones are rigged with the
  // template that suits them.
  async function openSample(file, template) {
    const response = await fetch(`web/samples/${file}`);
    if (!response.ok) throw new Error(`cannot open the sample ${file}: HTTP ${response.status}`);
    $('template').value = template;
    return loadFiles([{ name: file, bytes: new Uint8Array(await response.arrayBuffer()) }]);
  }
  $('sample').addEventListener('change', (e) => {
    const [file, template] = e.target.value.split('|');
    e.target.value = '';
    if (file) openSample(file, template).catch((err) => showError(err.message));
  });
  $('xray').addEventListener('change', (e) => { app.setXray(e.target.checked); redraw(); });
  $('wireframe').addEventListener('change', (e) => { app.setWireframe(e.target.checked); redraw(); });

  $('rig-button').addEventListener('click', () => {
    if (shownFiles) rigFiles(shownFiles).catch(() => {});
  });
  $('progress-cancel').addEventListener('click', () => { if (cancelRig) cancelRig(); });
  $('weights-joint').addEventListener('change', (e) => {
    const joint = Number(e.target.value);
    app.showWeights(joint);
    $('legend').hidden = joint < 0;
    redraw();
  });
  const exportGlb = () => app.exportGlb(Number($('max-influences').value));
  $('download-button').addEventListener('click', () => {
    try {
      const blob = new Blob([exportGlb()], { type: 'model/gltf-binary' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = `${(current && current.name ? current.name : 'character').replace(/\.[^.]*$/, '')}-rigkit.glb`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (e) {
      showError(e.message || String(e));
    }
  });

  // What scripts get back from a rig: counts, names and joint positions in the input's frame.
  const rigResult = () => ({
    ...current,
    jointCount: app.jointNames().length,
    names: app.jointNames(),
    joints: app.jointPositions(),
  });

  // Runs the same feature computation on every available backend and on the plain-Rust
  // reference, and reports how far apart they are.
  async function checkBackends() {
    const positions = app.positions();
    const reference = wasm.vertexFeaturesReference(positions);
    const cpu = await wasm.vertexFeatures(positions, false);
    const result = {
      backend: backend.label,
      vertices: positions.length / 3,
      cpuVsReference: maxAbsDiff(cpu, reference),
      gpuVsCpu: null,
    };
    if (backend.kind === 'webgpu') {
      result.gpuVsCpu = maxAbsDiff(await wasm.vertexFeatures(positions, true), cpu);
      // Both networks on a generated creature: { joints, weights } largest differences.
      result.neural = await wasm.neuralBackendCheck();
    }
    return result;
  }

  // Files picked or dropped together: a .gltf with its .bin, an .obj with its .mtl.
  async function openUserFiles(fileList) {
    const files = [...fileList];
    if (files.length === 0) return;
    // A capture dropped on a rigged character plays on it.
    const captures = files.filter((f) => f.name.toLowerCase().endsWith('.bvh'));
    if (captures.length > 0) {
      try {
        retargetClip(new Uint8Array(await captures[0].arrayBuffer()), captures[0].name);
      } catch (_) {
        // Shown in the banner.
      }
      return;
    }
    try {
      const loaded = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      await loadFiles(loaded);
    } catch (_) {
      // Already shown in the banner.
    }
  }

  $('file-input').addEventListener('change', (e) => {
    openUserFiles(e.target.files);
    e.target.value = '';
  });
  const dropHint = $('drop-hint');
  addEventListener('dragenter', (e) => { e.preventDefault(); dropHint.hidden = false; });
  addEventListener('dragover', (e) => { e.preventDefault(); });
  addEventListener('dragleave', (e) => { if (!e.relatedTarget) dropHint.hidden = true; });
  addEventListener('drop', (e) => {
    e.preventDefault();
    dropHint.hidden = true;
    if (e.dataTransfer) openUserFiles(e.dataTransfer.files);
  });

  try {
    const response = await fetch(SAMPLE.url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    await load(new Uint8Array(await response.arrayBuffer()), SAMPLE.name);
  } catch (e) {
    showError(`Could not open the sample character: ${e.message}`);
  }

  window.rigkit = {
    ready: true,
    backend: backend.label,
    backendKind: backend.kind,
    load,
    loadFiles,
    openSample,
    checkBackends,
    get current() { return current; },
    jointPositions: () => app.jointPositions(),
    // Rigs `bytes` (a mesh, or a rigged file to rig anew) with options { template, maxInfluences, method,
    // skeleton: { name, bytes } } — a rigged GLB or a BVH whose skeleton is adapted to the mesh.
    rig: async (bytes, name, options = {}) => {
      await rigFiles([{ name, bytes }], options);
      return rigResult();
    },
    // Shows joint `joint`'s weights (index or name) as a heatmap; -1 for the materials.
    showWeights: (joint) => {
      const index = typeof joint === 'string' ? app.jointNames().indexOf(joint) : joint;
      const select = $('weights-joint');
      select.value = String(index);
      select.dispatchEvent(new Event('change'));
    },
    exportGlb,
    // Motion: the playable list, a generated motion or a retargeted clip (both added to the
    // character's clips and exported), playback control, and the skinned vertices shown.
    motions: () => app.motions(),
    animate,
    retarget: retargetClip,
    play: playClip,
    pause: () => { playback.playing = false; $('play-button').textContent = 'Play'; },
    seek: (time) => { playback.time = time; showTime(); },
    setSpeed: (speed) => { playback.speed = speed; $('speed').value = String(speed); },
    restPose,
    get playback() { return { ...playback }; },
    posedPositions: () => app.posedPositions(),
    bakePose: () => { app.bakePose(); redraw(); },
    // Editing (each edit re-skins and can be undone) and pose mode.
    ...edits,
    setMode: (mode) => { $('mode').value = mode; $('mode').dispatchEvent(new Event('change')); },
    selectJoint,
    jointParents: () => app.jointParents(),
    jointWeights: (joint) => app.jointWeights(joint),
    jointScreenPositions: () => app.jointScreenPositions(canvas.clientWidth, canvas.clientHeight),
    rotateJoint: (joint, dx, dy) => { app.rotateJoint(joint, dx, dy); redraw(); },
    resetPose: () => { app.resetPose(); redraw(); },
    gizmoJoint: () => app.gizmoJoint(),
  };
  dispatchEvent(new CustomEvent('rigkit-ready'));
}

// Works offline after the first visit (web/sw.js, copied to the site root so that it controls
// the whole page).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('sw.js').catch((e) => console.warn(`offline support unavailable: ${e.message}`));
}

main().catch((e) => {
  console.error(e);
  showError(`rigkit failed to start: ${e && e.message ? e.message : e}`);
});
