// rigkit for embedding: rig characters in the browser from any page, show them, and drop a
// <rigkit-viewer> element in. Everything runs locally: the wasm module comes from beside this
// file and nothing is uploaded.
//
//   import { Rigger, mountViewer } from 'rigkit';           // or './web/rigkit-embed.js'
//   const rigger = new Rigger();
//   const rig = await rigger.rig(file, { template: 'auto' }, (stage) => console.log(stage));
//   const walking = await rigger.animate(rig, 'walk');
//   mountViewer(canvas, walking);
//   const fbx = await rigger.export(walking, 'fbx');
//
// Types: rigkit-embed.d.ts.

import initWasm, * as bindings from '../rigkit.js';
import { startFrames } from './frames.js';

// Paths relative to this file, in the forms bundlers (Vite, webpack) follow and emit: the
// binary as `new URL(…, import.meta.url)`, the worker written out inside `new Worker(…)`.
const BINARY = new URL('../rigkit_bg.wasm', import.meta.url);

let loading = null;

/** Loads the wasm module once (on the page's thread, for viewers and reading rigs). */
export function init() {
  if (!loading) loading = initWasm({ module_or_path: BINARY }).then(() => bindings);
  return loading;
}

const cancelled = () => new DOMException('Rigging was cancelled', 'AbortError');

// The input as { name, bytes } files, each its own compact copy (a view would send its whole
// buffer to the worker).
async function toFiles(input, name) {
  const list = Array.isArray(input) ? input : [input];
  return Promise.all(list.map(async (item, i) => {
    if (item instanceof Uint8Array) return { name: i === 0 ? (name || 'character.glb') : `file${i}`, bytes: item.slice() };
    if (typeof Blob !== 'undefined' && item instanceof Blob) {
      return { name: item.name || name || 'character.glb', bytes: new Uint8Array(await item.arrayBuffer()) };
    }
    throw new TypeError('expected a Uint8Array, a File or an array of Files');
  }));
}

/** A rigged character: its skeleton, its sparse skin weights, its clips and the GLB they came from. */
export class Rig {
  constructor(glb, description) {
    this.glb = glb;
    this.name = description.name;
    this.fileName = description.fileName;
    this.jointCount = description.names.length;
    this.names = description.names;
    this.parents = description.parents;
    this.joints = description.joints;
    this.weights = description.weights;
    this.vertexCount = description.vertexCount;
    this.clips = description.clips || [];
    this.timings = description.timings || null;
    this.recognised = description.recognised || null;
    // The influences a vertex keeps in this file: 8 when any vertex has more than 4.
    const { offsets } = this.weights;
    let most = 0;
    for (let v = 0; v + 1 < offsets.length; v++) most = Math.max(most, offsets[v + 1] - offsets[v]);
    this.maxInfluences = most > 4 ? 8 : 4;
  }

  /** The rigged character as GLB bytes (validator-clean). */
  toGlb() {
    return this.glb.slice();
  }
}

// "soldier.fbx" → "soldier-rigged.glb": the file a result is named after.
const renamed = (files, what) => `${files[0].name.replace(/\.[^.]*$/, '')}-${what}.glb`;

// The GLB `glb` read back as a Rig named after `fileName`.
async function describe(glb, fileName, extra = {}) {
  const module = await init();
  const description = module.describeRig(glb, fileName);
  return new Rig(glb, { ...description, fileName, ...extra });
}

// A motion to add: a generated motion's name, or a capture file to retarget as { name, bytes }.
async function toMotion(motion) {
  if (typeof motion === 'string') return motion;
  if (motion && motion.bytes instanceof Uint8Array) return { name: motion.name, bytes: motion.bytes.slice() };
  const [file] = await toFiles(motion, 'motion.bvh');
  return file;
}

/** Rigs, skins, animates and exports characters off the page's thread, on one worker per instance. */
export class Rigger {
  /** `backend`: 'auto' (WebGPU when the browser has it, else CPU), 'webgpu' or 'cpu'. */
  constructor({ backend = 'auto' } = {}) {
    if (!['auto', 'webgpu', 'cpu'].includes(backend)) throw new TypeError(`unknown backend '${backend}'`);
    this.backend = backend;
    this.worker = null;
    this.jobs = 0;
  }

  // Whether the worker may start a WebGPU device for the networks.
  get onGpu() {
    return this.backend !== 'cpu' && typeof navigator !== 'undefined' && 'gpu' in navigator;
  }

  // Runs one operation on the worker: resolves to its answer, reports stages, and terminates
  // the worker when `signal` aborts (the next call starts a fresh one).
  run(message, onProgress = () => {}, signal = undefined, transfer = []) {
    if (signal && signal.aborted) return Promise.reject(cancelled());
    if (!this.worker) this.worker = new Worker(new URL('./rig-worker.js', import.meta.url), { type: 'module' });
    const worker = this.worker;
    const id = ++this.jobs;
    return new Promise((resolve, reject) => {
      const abort = () => {
        worker.terminate();
        if (this.worker === worker) this.worker = null;
        reject(cancelled());
      };
      if (signal) signal.addEventListener('abort', abort, { once: true });
      worker.onmessage = ({ data }) => {
        if (data.id !== id) return;
        if (data.stage) onProgress(data.stage);
        else {
          if (signal) signal.removeEventListener('abort', abort);
          // A worker whose module trapped (out of memory) is replaced on the next call.
          if (data.stopped) {
            worker.terminate();
            if (this.worker === worker) this.worker = null;
          }
          if (data.error) reject(new Error(data.error));
          else resolve(data);
        }
      };
      worker.onerror = (e) => reject(new Error(e.message || 'the rig worker failed'));
      worker.postMessage({ id, ...message }, transfer);
    });
  }

  /**
   * Rigs `input` (bytes, a File, or several Files such as a .gltf and its .bin). Options:
   * `template` ('auto' | 'free' | 'humanoid' | 'quadruped' | 'bird' | 'chain' | 'rig-NAME'), `maxInfluences` (4 | 8),
   * `method` ('best' | 'geometric' | 'neural'; the networks run on WebGPU when the browser has an adapter),
   * `name`, `skeleton` ({ name, bytes }: a rigged GLB or a BVH whose skeleton is adapted),
   * `helpers` (false: one worker). `onProgress(stage)` hears 'parse', 'voxelise', 'skeleton', 'skin', 'export'; `signal` cancels.
   */
  async rig(input, options = {}, onProgress = () => {}, signal = undefined) {
    const files = await toFiles(input, options.name);
    const result = await this.run({
      op: 'rig',
      files,
      template: options.template || 'auto',
      maxInfluences: Number(options.maxInfluences || 4),
      method: options.method || 'best',
      onGpu: this.onGpu,
      helpers: options.helpers !== false,
      skeleton: options.skeleton ? { name: options.skeleton.name, bytes: options.skeleton.bytes.slice() } : null,
    }, onProgress, signal);
    return describe(result.glb, renamed(files, 'rigged'), { timings: result.timings, recognised: result.recognised });
  }

  /**
   * New skin weights for the skeleton `input` already has (a rigged GLB/glTF/VRM/FBX/DAE);
   * joints, names and clips are kept. Options: `method` ('neural' default, or 'geometric'),
   * `maxInfluences` (4 | 8), `name`. `onProgress` hears 'parse', 'skin', 'export'.
   */
  async skin(input, options = {}, onProgress = () => {}, signal = undefined) {
    const files = await toFiles(input, options.name);
    const result = await this.run({
      op: 'skin',
      files,
      method: options.method || 'neural',
      maxInfluences: Number(options.maxInfluences || 4),
      onGpu: this.onGpu,
    }, onProgress, signal);
    return describe(result.glb, renamed(files, 'skinned'));
  }

  /**
   * `rig` with a motion added (a clip of the same name is replaced): a generated one by name
   * ('idle', 'look', 'walk', 'flap', 'wave'), or a capture to
   * retarget — a .bvh, or a rigged .glb whose first clip is used — as a File or { name, bytes }.
   */
  async animate(rig, motion, signal = undefined) {
    const result = await this.run({
      op: 'animate',
      glb: rig.toGlb(),
      name: rig.fileName || 'character.glb',
      motion: await toMotion(motion),
      maxInfluences: rig.maxInfluences,
    }, undefined, signal);
    return describe(result.glb, rig.fileName || 'character.glb', { recognised: rig.recognised });
  }

  /** `animate` with a capture file: the first clip of `motion` retargeted onto `rig`. */
  retarget(rig, motion, signal = undefined) {
    if (typeof motion === 'string') return Promise.reject(new TypeError('retarget() takes a .bvh or rigged .glb file'));
    return this.animate(rig, motion, signal);
  }

  /**
   * `rig` as a file: `format` 'glb' (default), 'fbx' (binary FBX 7.4, centimetres) or 'vrm',
   * clips included; `boneNames` 'mixamo' | 'unity' | 'unreal' | 'vrm' renames a humanoid's joints;
   * `correctives` adds corrective shapes (morph targets keeping bent elbows and knees from
   * collapsing) keyed in every clip.
   */
  async export(rig, format = 'glb', { boneNames, maxInfluences, correctives } = {}) {
    const result = await this.run({
      op: 'convert',
      glb: rig.toGlb(),
      name: rig.fileName || 'character.glb',
      format,
      boneNames: boneNames || undefined,
      maxInfluences: Number(maxInfluences || rig.maxInfluences),
      correctives: Boolean(correctives),
    });
    return result.glb;
  }

  /** Stops the worker; an operation in progress is cancelled. */
  dispose() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }
}

/**
 * Shows `rig` on `canvas` with orbit (drag), pan (right-drag) and zoom (wheel). Returns a
 * handle whose `dispose()` stops drawing.
 */
export async function mountViewer(canvas, rig) {
  const module = await init();
  canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
  const app = new module.App(canvas);
  app.loadFiles([rig.fileName || 'character.glb'], [rig.toGlb()]);
  const frames = startFrames(canvas, app);
  let drag = null;
  const down = (e) => { drag = { x: e.clientX, y: e.clientY, pan: e.button !== 0 }; canvas.setPointerCapture(e.pointerId); };
  const move = (e) => {
    if (!drag) return;
    const [dx, dy] = [e.clientX - drag.x, e.clientY - drag.y];
    [drag.x, drag.y] = [e.clientX, e.clientY];
    if (drag.pan) app.pan(dx, dy); else app.orbit(dx, dy);
    frames.redraw();
  };
  const up = () => { drag = null; };
  const wheel = (e) => { e.preventDefault(); app.zoom(-Math.sign(e.deltaY)); frames.redraw(); };
  const menu = (e) => e.preventDefault();
  canvas.addEventListener('pointerdown', down);
  canvas.addEventListener('pointermove', move);
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('wheel', wheel, { passive: false });
  canvas.addEventListener('contextmenu', menu);
  return {
    app,
    redraw: frames.redraw,
    dispose() {
      frames.stop();
      canvas.removeEventListener('pointerdown', down);
      canvas.removeEventListener('pointermove', move);
      canvas.removeEventListener('pointerup', up);
      canvas.removeEventListener('wheel', wheel);
      canvas.removeEventListener('contextmenu', menu);
      app.free();
    },
  };
}

/**
 * `<rigkit-viewer src="model.glb" template="auto">`: fetches `src`, rigs it with `template`
 * and shows it. Events: `progress` (detail: stage),
 * `rigged` (detail: Rig), `error` (detail: Error).
 */
export class RigkitViewer extends HTMLElement {
  static get observedAttributes() { return ['src', 'template']; }

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<style>:host{display:block;position:relative;min-height:240px}'
      + 'canvas{width:100%;height:100%;display:block;touch-action:none}</style><canvas part="canvas"></canvas>';
    this.canvas = root.querySelector('canvas');
    this.viewer = null;
    this.rigger = new Rigger();
    this.rig = null;
    this.controller = null;
  }

  connectedCallback() { this.load(); }

  disconnectedCallback() {
    if (this.controller) this.controller.abort();
    if (this.viewer) this.viewer.dispose();
    this.rigger.dispose();
  }

  attributeChangedCallback(_name, before, after) {
    if (before !== after && this.isConnected) this.load();
  }

  async load() {
    const src = this.getAttribute('src');
    if (!src) return;
    if (this.controller) this.controller.abort();
    const controller = new AbortController();
    this.controller = controller;
    try {
      const response = await fetch(src, { signal: controller.signal });
      if (!response.ok) throw new Error(`cannot fetch '${src}': HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const name = new URL(src, location.href).pathname.split('/').pop() || 'character.glb';
      const rig = await this.rigger.rig(bytes, { template: this.getAttribute('template') || 'auto', name },
        (stage) => this.dispatchEvent(new CustomEvent('progress', { detail: stage })), controller.signal);
      if (controller.signal.aborted) return;
      if (this.viewer) this.viewer.dispose();
      this.viewer = await mountViewer(this.canvas, rig);
      this.rig = rig;
      this.dispatchEvent(new CustomEvent('rigged', { detail: rig }));
    } catch (error) {
      if (error && error.name === 'AbortError') return;
      this.dispatchEvent(new CustomEvent('error', { detail: error }));
    }
  }
}

if (typeof customElements !== 'undefined' && !customElements.get('rigkit-viewer')) {
  customElements.define('rigkit-viewer', RigkitViewer);
}
