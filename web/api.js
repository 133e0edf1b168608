// `window.rigkit`: the page's operations for scripts and tests, each the same call the page's
// own controls make.

import { $ } from './ui.js';

export function rigkitApi(ctx) {
  const { app, wasm, canvas, backend } = ctx;

  // What scripts get back from a rig: counts, names and joint positions in the input's frame.
  const rigResult = () => ({
    ...ctx.current,
    jointCount: app.jointNames().length,
    names: app.jointNames(),
    joints: app.jointPositions(),
  });

  // Runs the same feature computation and both networks on every available backend and
  // reports how far each is from the plain-Rust reference and the CPU.
  async function checkBackends() {
    const positions = app.positions();
    const result = {
      backend: backend.label,
      vertices: positions.length / 3,
      cpuVsReference: await wasm.featureDifference(positions, false),
      gpuVsCpu: null,
    };
    if (backend.kind === 'webgpu') {
      // Against the reference, which the CPU matches to 1e-7.
      result.gpuVsCpu = await wasm.featureDifference(positions, true);
      // Both networks on a generated creature: { joints, weights } largest differences.
      result.neural = await wasm.neuralBackendCheck();
    }
    return result;
  }

  return {
    ready: true,
    backend: backend.label,
    backendKind: backend.kind,
    load: ctx.load,
    loadFiles: ctx.loadFiles,
    openSample: ctx.openSample,
    checkBackends,
    get current() { return ctx.current; },
    jointPositions: () => app.jointPositions(),
    // Rigs `bytes` (a mesh, or a rigged file to rig anew) with options { template, maxInfluences, method,
    // skeleton: { name, bytes } — a rigged GLB or a BVH whose skeleton is adapted to the mesh,
    // helpers: false — carry a template on the rig worker alone, not spread over the cores }.
    rig: async (bytes, name, options = {}) => {
      await ctx.rigFiles([{ name, bytes }], options);
      return rigResult();
    },
    // Shows joint `joint`'s weights (index or name) as a heatmap; -1 for the materials.
    showWeights: (joint) => {
      const index = typeof joint === 'string' ? app.jointNames().indexOf(joint) : joint;
      const select = $('weights-joint');
      select.value = String(index);
      select.dispatchEvent(new Event('change'));
    },
    exportGlb: ctx.exportGlb,
    // The character as 'glb', 'fbx' (binary FBX 7.4, centimetres) or 'vrm', clips included;
    // boneNames 'mixamo' | 'unity' | 'unreal' | 'vrm' renames a humanoid's joints in the file.
    exportAs: ctx.exportAs,
    // Motion: the playable list, a generated motion or a retargeted clip (both added to the
    // character's clips and exported), playback control, and the skinned vertices shown.
    motions: () => app.motions(),
    animate: ctx.animate,
    retarget: ctx.retarget,
    play: ctx.playClip,
    pause: ctx.pause,
    seek: ctx.seek,
    setSpeed: ctx.setSpeed,
    restPose: ctx.restPose,
    get playback() { return app.playback(); },
    posedPositions: () => app.posedPositions(),
    bakePose: () => { app.bakePose(); ctx.redraw(); },
    // The character's morph targets [{ name, weight }] and a weight to show and download.
    morphTargets: () => app.morphTargets(),
    setMorphWeight: (index, weight) => {
      app.setMorphWeight(index, weight);
      const slider = document.querySelector(`#morph-list input[data-target="${index}"]`);
      if (slider) slider.value = String(weight);
      ctx.redraw();
    },
    // Corrective shapes on or off: { shapes, ms } (how many, the fit's time). On, they are
    // shown in every pose and clip and written into exports as morph targets.
    setCorrectives: (on) => ctx.setCorrectives(on),
    get correctives() { return app.correctivesOn(); },
    // Paints the body with how far the correctives move it in the pose shown (the chip).
    showCorrectiveDifference: (on) => ctx.setDifference(on),
    // Editing (each edit re-skins and can be undone) and pose mode.
    ...ctx.edits,
    setMode: (mode) => {
      ctx.showStep('check');
      $('mode').value = mode;
      $('mode').dispatchEvent(new Event('change'));
    },
    // The page's steps: 'rig', 'check', 'animate' or 'download'.
    showStep: ctx.showStep,
    get step() { return ctx.step; },
    selectJoint: ctx.selectJoint,
    // X-mirror for joint moves (the page's checkbox): a moved joint's twin moves with it.
    setMirror: (on) => { $('edit-mirror').checked = Boolean(on); app.setMirror(Boolean(on)); },
    jointNames: () => app.jointNames(),
    jointParents: () => app.jointParents(),
    jointWeights: (joint) => app.jointWeights(joint),
    // The surface point under the viewport pixel (x, y), or undefined.
    pickSurface: (x, y) => app.pickSurface(x, y, canvas.clientWidth, canvas.clientHeight),
    jointScreenPositions: () => app.jointScreenPositions(canvas.clientWidth, canvas.clientHeight),
    rotateJoint: (joint, dx, dy) => { app.rotateJoint(joint, dx, dy); ctx.redraw(); },
    // Turns a joint by `degrees` about a world axis [x, y, z], on top of its pose.
    turnJoint: (joint, [x, y, z], degrees) => { app.turnJoint(joint, x, y, z, degrees); ctx.redraw(); },
    resetPose: () => { app.resetPose(); ctx.redraw(); },
    gizmoJoint: () => app.gizmoJoint(),
  };
}
