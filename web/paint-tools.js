// Weight painting in the Check step: the brush's settings, its outline under the pointer,
// and strokes (a drag on the body) sent to the Rust document one dab per pointer move. A
// stroke is one undo step; the heatmap shows the painted joint as it changes.

import { $, showError } from './ui.js';

export function setupPaintTools(ctx) {
  const { app, canvas } = ctx;
  const outline = $('brush-outline');
  let stroke = null;

  const settings = () => ({
    mode: document.querySelector('input[name="brush"]:checked').value,
    radius: Number($('brush-radius').value),
    strength: Number($('brush-strength').value),
    mirror: $('brush-mirror').checked,
  });
  const surfaceAt = (e) => app.pickSurface(e.offsetX, e.offsetY, canvas.clientWidth, canvas.clientHeight);

  // One dab on `joint` at the surface point `at`; `newStroke` starts an undo step. Returns
  // how many vertices changed.
  function paint(joint, at, { mode, radius, strength, mirror }, newStroke) {
    const changed = app.paint(joint, mode, at[0], at[1], at[2], radius, strength, mirror, newStroke);
    ctx.redraw();
    return changed;
  }

  // The brush's circle under the pointer, sized as the radius appears at that depth.
  function showOutline(e, at) {
    if (!at) {
      outline.hidden = true;
      return;
    }
    const r = app.screenRadius(at[0], at[1], at[2], settings().radius, canvas.clientWidth, canvas.clientHeight);
    Object.assign(outline.style, { left: `${e.offsetX}px`, top: `${e.offsetY}px`, width: `${2 * r}px`, height: `${2 * r}px` });
    outline.hidden = false;
  }

  // Starts a stroke where the pointer touches the body; `false` (the view turns instead)
  // when it is beside the body.
  function begin(e) {
    const at = surfaceAt(e);
    if (!at) return false;
    if (ctx.selected < 0) {
      showError('Choose the joint to paint first: click it, or pick it in "Weights of"');
      return true;
    }
    try {
      stroke = { joint: ctx.selected, changed: paint(ctx.selected, at, settings(), true) };
    } catch (err) {
      showError(err.message || String(err));
    }
    showOutline(e, at);
    return true;
  }

  // A pointer move: a dab while stroking, else only the outline.
  function move(e) {
    const at = surfaceAt(e);
    showOutline(e, at);
    if (!stroke || !at) return;
    try {
      stroke.changed += paint(stroke.joint, at, settings(), false);
    } catch (err) {
      showError(err.message || String(err));
      stroke = null;
    }
  }

  // Ends the stroke: the skinned mesh takes the new weights; the undo buttons follow.
  function end() {
    if (!stroke) return;
    app.endStroke();
    $('status-edit').textContent = `painted ${$('weights-joint').selectedOptions[0].textContent}: ${stroke.changed} vertex changes`;
    stroke = null;
    ctx.listInfluence();
    ctx.redraw();
  }

  const hide = () => { outline.hidden = true; };
  canvas.addEventListener('pointerleave', hide);

  ctx.brush = { begin, move, end, hide, painting: () => stroke !== null };
  // For scripts: one dab at a surface point with the given (or the page's) settings.
  ctx.paintAt = (joint, at, options = {}) => {
    const changed = paint(joint, at, { ...settings(), ...options }, options.newStroke !== false);
    app.endStroke();
    return changed;
  };
}
