// rigkit for embedding: rig characters in the browser from any page, show them, and drop a
// <rigkit-viewer> element in. Everything runs locally: the wasm module comes from beside this
// file and nothing is uploaded.
//
//   import { init, Rigger, mountViewer } from './web/rigkit-embed.js';
//   await init();
//   const rig = await new Rigger().rig(file, { template: 'auto' }, (stage) => console.log(stage));
//   mountViewer(canvas, rig);
//
// Types: rigkit-embed.d.ts.

import { startFrames } from './frames.js';

const GLUE = new URL('../rigkit.js', import.meta.url).href;
const BINARY = new URL('../rigkit_bg.wasm', import.meta.url).href;
const WORKER = new URL('./rig-worker.js', import.meta.url);

let loading = null;

/** Loads the wasm module once (on the page's thread, for viewers and reading rigs). */
export function init() {
  if (!loading) {
    loading = import(GLUE).then(async (module) => {
      await module.default({ module_or_path: BINARY });
      return module;
    });
  }
  return loading;
}

async function toFiles(input, name) {
  const list = Array.isArray(input) ? input : [input];
  return Promise.all(list.map(async (item, i) => {
    if (item instanceof Uint8Array) return { name: i === 0 ? (name || 'character.glb') : `file${i}`, bytes: item };
    if (typeof Blob !== 'undefined' && item instanceof Blob) {
      return { name: item.name || name || 'character.glb', bytes: new Uint8Array(await item.arrayBuffer()) };
    }
    throw new TypeError('rig() takes a Uint8Array, a File or an array of Files');
  }));
}

/** A rigged character: its skeleton, its sparse skin weights, and the GLB they came from. */
export class Rig {
  constructor(glb, description) {
    this.glb = glb;
    this.name = description.name;
    this.jointCount = description.names.length;
    this.names = description.names;
    this.parents = description.parents;
    this.joints = description.joints;
    this.weights = description.weights;
    this.vertexCount = description.vertexCount;
    this.timings = description.timings || null;
    this.recognised = description.recognised || null;
  }

  /** The rigged character as GLB bytes (validator-clean). */
  toGlb() {
    return this.glb.slice();
  }
}

/** Rigs characters off the page's thread, one at a time per instance. */
export class Rigger {
  /** `backend`: 'auto' (WebGPU when the browser has it, else CPU), 'webgpu' or 'cpu'. */
  constructor({ backend = 'auto' } = {}) {
    if (!['auto', 'webgpu', 'cpu'].includes(backend)) throw new TypeError(`unknown backend '${backend}'`);
    this.backend = backend;
    this.worker = null;
    this.jobs = 0;
  }

  /**
   * Rigs `input` (bytes, a File, or several Files such as a .gltf and its .bin). Options:
   * `template` ('auto' | 'humanoid' | 'quadruped' | 'bird' | 'chain'), `maxInfluences` (4 | 8),
   * `method` ('best' | 'geometric' | 'neural'; the networks run on WebGPU when the browser has an adapter),
   * `name`, `skeleton` ({ name, bytes }: a rigged GLB or a BVH whose skeleton is adapted). `onProgress(stage)` hears 'parse', 'voxelise', 'skeleton', 'skin', 'export'; `signal` cancels.
   */
  async rig(input, options = {}, onProgress = () => {}, signal = undefined) {
    const module = await init();
    const files = await toFiles(input, options.name);
    if (signal && signal.aborted) throw new DOMException('Rigging was cancelled', 'AbortError');
    if (!this.worker) this.worker = new Worker(WORKER, { type: 'module' });
    const worker = this.worker;
    const id = ++this.jobs;
    const result = await new Promise((resolve, reject) => {
      const abort = () => {
        worker.terminate();
        if (this.worker === worker) this.worker = null;
        reject(new DOMException('Rigging was cancelled', 'AbortError'));
      };
      if (signal) signal.addEventListener('abort', abort, { once: true });
      worker.onmessage = ({ data }) => {
        if (data.id !== id) return;
        if (data.stage) onProgress(data.stage);
        else {
          if (signal) signal.removeEventListener('abort', abort);
          if (data.error) reject(new Error(data.error));
          else resolve(data);
        }
      };
      worker.onerror = (e) => reject(new Error(e.message || 'the rig worker failed'));
      worker.postMessage({
        id,
        glue: GLUE,
        binary: BINARY,
        files: files.map((f) => ({ name: f.name, bytes: f.bytes.slice() })),
        template: options.template || 'auto',
        maxInfluences: Number(options.maxInfluences || 4),
        method: options.method || 'best',
        onGpu: typeof navigator !== 'undefined' && 'gpu' in navigator,
        helpers: options.helpers !== false,
        skeleton: options.skeleton ? { name: options.skeleton.name, bytes: options.skeleton.bytes.slice() } : null,
      });
    });
    const base = files[0].name.replace(/\.[^.]*$/, '');
    const description = module.describeRig(result.glb, `${base}-rigged.glb`);
    return new Rig(result.glb, { ...description, timings: result.timings, recognised: result.recognised });
  }

  /** Stops the worker; a rig in progress is cancelled. */
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
  app.loadFiles([rig.name || 'character.glb'], [rig.toGlb()]);
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
