// The page shell's entry: starts the wasm module and the viewport, picks the compute backend,
// wires each part of the page (./steps.js, ./input.js, ./rig-client.js, ./playback.js,
// ./edit-tools.js, ./paint-tools.js) to one shared context, opens the sample, and exposes `window.rigkit`
// (./api.js). State and policy live in Rust; these modules only move bytes and events.

import { rigkitApi } from './api.js';
import { setupEditTools } from './edit-tools.js';
import { startFrames } from './frames.js';
import { chooseBackend } from './gpu.js';
import { setupInput } from './input.js';
import { setupPaintTools } from './paint-tools.js';
import { setupPlayback } from './playback.js';
import { setupRigClient } from './rig-client.js';
import { setupSteps } from './steps.js';
import { $, clearError, reported, showError } from './ui.js';

const SAMPLE = { url: 'web/samples/human-zombie.glb', name: 'human-zombie.glb' };

function wasmReady() {
  if (window.wasmBindings) return Promise.resolve(window.wasmBindings);
  return new Promise((resolve) =>
    addEventListener('TrunkApplicationStarted', () => resolve(window.wasmBindings), { once: true }));
}

async function main() {
  const wasm = await wasmReady();
  const canvas = $('viewport');
  // Created here so the page chooses the options; the wasm side picks up the same context.
  canvas.getContext('webgl2', { antialias: true, preserveDrawingBuffer: true });
  const ctx = { wasm, canvas, app: new wasm.App(canvas), current: null };
  // Playback advances in Rust each frame (`ctx.tick`, from ./playback.js).
  ctx.redraw = startFrames(canvas, ctx.app, (seconds) => ctx.tick && ctx.tick(seconds)).redraw;
  setupSteps(ctx);
  setupPlayback(ctx);
  setupPaintTools(ctx);
  setupEditTools(ctx);
  $('error-close').addEventListener('click', clearError);
  $('xray').addEventListener('change', (e) => { ctx.app.setXray(e.target.checked); ctx.redraw(); });
  $('wireframe').addEventListener('change', (e) => { ctx.app.setWireframe(e.target.checked); ctx.redraw(); });
  // Corrective shapes: fitted to the rig when turned on, then shown in every pose and clip and
  // written into downloads; the box says whether they are on (a failed fit leaves them off).
  ctx.setCorrectives = (on) => {
    try {
      const fitted = reported(() => ctx.app.setCorrectives(Boolean(on)));
      $('status-edit').textContent = on
        ? `${fitted.shapes} corrective shapes, fitted in ${(fitted.ms / 1000).toFixed(1)} s`
        : '';
      return fitted;
    } finally {
      const on = ctx.app.correctivesOn();
      $('correctives').checked = on;
      $('difference-chip').hidden = !on;
      if (!on) ctx.setDifference(false);
      ctx.redraw();
    }
  };
  // The difference view: the body painted with how far the correctives move it (over a
  // joint's weights, which it turns off).
  ctx.setDifference = (on) => {
    const shown = Boolean(on) && ctx.app.correctivesOn();
    if (shown && ctx.selected >= 0 && ctx.selectJoint) ctx.selectJoint(-1);
    ctx.app.showCorrectiveDifference(shown);
    $('corrective-difference').checked = shown;
    $('difference-legend').hidden = !shown;
    ctx.redraw();
  };
  $('corrective-difference').addEventListener('change', (e) => ctx.setDifference(e.target.checked));
  $('correctives').addEventListener('change', (e) => {
    try { ctx.setCorrectives(e.target.checked); } catch { /* shown in the banner */ }
  });

  ctx.backend = await chooseBackend(wasm);
  $('status-backend').textContent = ctx.backend.label;
  $('status-backend').title = ctx.backend.kind === 'webgpu'
    ? 'The networks run on this GPU'
    : `The networks run on the CPU${ctx.backend.reason ? ` (${ctx.backend.reason})` : ''}`;
  setupRigClient(ctx);
  setupInput(ctx);

  try {
    const response = await fetch(SAMPLE.url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    await ctx.load(new Uint8Array(await response.arrayBuffer()), SAMPLE.name);
  } catch (e) {
    showError(`Could not open the sample character: ${e.message}`);
  }

  window.rigkit = rigkitApi(ctx);
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
