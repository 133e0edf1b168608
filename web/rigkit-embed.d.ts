// Types of web/rigkit-embed.js: rigging in the browser for pages that embed rigkit.

/** A rig stage, announced as it begins. */
export type RigStage = 'parse' | 'voxelise' | 'skeleton' | 'skin' | 'export';

export interface RigOptions {
  /** Skeleton to fit. 'auto' (default): the body plan is recognised and its library template
   * fitted, or the free-form skeleton where the classifier is unsure; 'free': the free-form
   * skeleton (any creature); a library template by name; or one of ours. */
  template?:
    | 'auto' | 'free' | 'humanoid' | 'quadruped' | 'bird' | 'chain'
    | 'rig-human' | 'rig-fox' | 'rig-horse' | 'rig-bird' | 'rig-dragon' | 'rig-kaiju'
    | 'rig-shark' | 'rig-snake' | 'rig-spider';
  /** 'best' (default: per stage what measured better on the eval set), 'geometric', or
   * 'neural' (both stages refined by the trained networks). Networks run on WebGPU when the
   * browser has an adapter, else on the CPU. */
  method?: 'best' | 'geometric' | 'neural';
  /** Influences kept per vertex. Default 4. */
  maxInfluences?: 4 | 8;
  /** File name for a Uint8Array input (its extension picks the format). */
  name?: string;
  /** A skeleton to adapt instead of a template: a rigged .glb/.gltf/.vrm or a .bvh. */
  skeleton?: { name: string; bytes: Uint8Array };
  /** Whether a template's bodies are carried side by side on helper workers, one per core
   * (at most four): the same rig, sooner. Default true; false keeps the rig on one worker. */
  helpers?: boolean;
}

/** Sparse skin weights: vertex v's influences are `joints[offsets[v]..offsets[v+1]]`. */
export interface SparseWeights {
  offsets: Uint32Array;
  joints: Uint32Array;
  values: Float32Array;
}

export class Rig {
  readonly name: string;
  readonly jointCount: number;
  readonly names: string[];
  /** Parent joint index per joint, -1 for roots; parents come first. */
  readonly parents: Int32Array;
  /** x, y, z per joint in the input's frame (bind pose). */
  readonly joints: Float32Array;
  readonly weights: SparseWeights;
  readonly vertexCount: number;
  /** What template 'auto' recognised (the likeliest plan and its probability) and fitted
   * (null: the free-form skeleton); null for other templates and for rigs not made by a
   * Rigger. */
  readonly recognised: {
    plan: string; confidence: number; riggedAs: string; template: string | null;
  } | null;
  /** Milliseconds per stage, for rigs made by a Rigger. */
  readonly timings: { parse: number; skeleton: number; skin: number; export: number } | null;
  /** The rigged character as GLB bytes. */
  toGlb(): Uint8Array;
}

/** Loads the wasm module (once); every other call awaits it itself. */
export function init(): Promise<unknown>;

export class Rigger {
  constructor(options?: { backend?: 'auto' | 'webgpu' | 'cpu' });
  readonly backend: 'auto' | 'webgpu' | 'cpu';
  /** Rigs a mesh off the page's thread. Rejects with an Error naming the problem, or an
   *  AbortError when `signal` aborts. */
  rig(
    input: Uint8Array | File | File[],
    options?: RigOptions,
    onProgress?: (stage: RigStage) => void,
    signal?: AbortSignal,
  ): Promise<Rig>;
  dispose(): void;
}

export interface ViewerHandle {
  redraw(): void;
  dispose(): void;
}

/** Shows a rig on a canvas with orbit, pan and zoom. */
export function mountViewer(canvas: HTMLCanvasElement, rig: Rig): Promise<ViewerHandle>;

/** `<rigkit-viewer src="model.glb" template="auto">`; events: progress, rigged, error. */
export class RigkitViewer extends HTMLElement {
  readonly rig: Rig | null;
}

declare global {
  interface HTMLElementTagNameMap {
    'rigkit-viewer': RigkitViewer;
  }
  interface HTMLElementEventMap {
    rigged: CustomEvent<Rig>;
    progress: CustomEvent<RigStage>;
  }
}
