// Pointer input on the viewport and the joint tools: orbit, pan and zoom; picking a joint
// (its weights are shown), dragging it in edit mode, turning it in pose mode or painting its
// weights in paint mode (./paint-tools.js); adding, deleting, renaming and re-parenting
// joints, with undo and redo. The rig and its history live in the Rust document; this
// module turns DOM events into its calls.

import { $, button, showError, reported } from './ui.js';

export function setupEditTools(ctx) {
  const { app, canvas } = ctx;
  let drag = null;
  ctx.selected = -1;

  // Selects a joint: its weights are painted and the edit tools act on it.
  function selectJoint(joint) {
    ctx.selected = joint;
    if (joint >= 0 && $('corrective-difference').checked) ctx.setDifference(false);
    $('weights-joint').value = String(joint);
    app.showWeights(joint);
    $('legend').hidden = joint < 0;
    const parents = app.jointParents();
    const select = $('parent-joint');
    select.replaceChildren(new Option('(parent…)', ''));
    app.jointNames().forEach((name, i) => { if (i !== joint) select.add(new Option(`parent: ${name}`, String(i))); });
    select.value = joint >= 0 && parents[joint] >= 0 ? String(parents[joint]) : '';
    for (const b of $('influence-chart').querySelectorAll('button')) b.setAttribute('aria-pressed', String(Number(b.dataset.joint) === joint));
    ctx.redraw();
  }

  // Fills the joint chooser of the weight heatmap, and the test poses the skeleton has.
  function listJoints() {
    const select = $('weights-joint');
    select.replaceChildren(new Option('(none: show materials)', '-1'));
    app.jointNames().forEach((name, i) => select.add(new Option(name, String(i))));
    $('legend').hidden = true;
    listTestPoses();
    listMorphTargets();
    listInfluence();
  }

  // The influence chart: each joint's share of the body (its weights summed over the
  // vertices), largest first; a click shows that joint's heatmap. Drawn when opened.
  function listInfluence() {
    const chart = $('influence-chart');
    if (!$('influence').open) {
      chart.replaceChildren();
      return;
    }
    const names = app.jointNames();
    const vertices = Math.max(1, ctx.current ? ctx.current.vertices : 1);
    const shares = names.map((name, joint) => ({
      name, joint, share: app.jointWeights(joint).reduce((a, w) => a + w, 0) / vertices,
    })).sort((a, b) => b.share - a.share);
    const top = shares.length > 0 ? Math.max(shares[0].share, 1e-6) : 1;
    chart.replaceChildren(...shares.map(({ name, joint, share }) => {
      const item = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.style.setProperty('--share', String(share / top));
      b.setAttribute('aria-pressed', String(joint === ctx.selected));
      b.dataset.joint = String(joint);
      const label = document.createElement('span');
      label.textContent = name;
      const value = document.createElement('span');
      value.textContent = `${(100 * share).toFixed(share < 0.001 ? 0 : 1)} %`;
      if (share < 1e-4) b.classList.add('none');
      b.append(label, value);
      b.addEventListener('click', () => selectJoint(joint));
      item.append(b);
      return item;
    }));
  }
  $('influence').addEventListener('toggle', listInfluence);

  // One button per generated motion the skeleton supports: its most bent moment, to check
  // the weights; "Rest" undoes it.
  function listTestPoses() {
    const list = $('test-pose-list');
    const names = app.motions().filter((m) => m.kind === 'procedural').map((m) => m.name);
    const poseButton = (label, title, run) => button(label, title, () => { quietly(run); ctx.redraw(); });
    list.replaceChildren(...names.map((name) => poseButton(name, `Bend the joints as the ${name} does at its fullest`, () => {
      reported(() => app.testPose(name));
    })));
    if (names.length > 0) list.append(poseButton('rest', 'Back to the rest pose', () => app.resetPose()));
    list.parentElement.hidden = names.length === 0;
  }

  // One slider per morph target the character has, at the weight shown.
  function listMorphTargets() {
    const targets = app.morphTargets();
    $('morph-list').replaceChildren(...targets.map((target, i) => {
      const label = document.createElement('label');
      const slider = document.createElement('input');
      Object.assign(slider, { type: 'range', min: '0', max: '1', step: '0.01', value: String(target.weight) });
      slider.dataset.target = String(i);
      slider.addEventListener('input', () => {
        quietly(() => reported(() => app.setMorphWeight(i, Number(slider.value))));
        ctx.redraw();
      });
      label.append(target.name, slider);
      return label;
    }));
    $('morph-targets').hidden = targets.length === 0;
  }

  // After any edit: the joint list, the motions and the undo buttons follow the rig.
  function afterEdit() {
    const keep = ctx.selected;
    listJoints();
    ctx.listMotions();
    const count = app.jointNames().length;
    selectJoint(keep < count ? keep : -1);
    ctx.current = { ...ctx.current, joints: count };
  }

  // Runs one edit, showing any error in the banner (and rethrowing it for scripts).
  const editRig = (run) => {
    const result = reported(run);
    afterEdit();
    return result;
  };
  const edits = {
    moveJoint: (joint, x, y, z) => editRig(() => app.moveJoint(joint, x, y, z)),
    addJoint: (parent, name = '') => editRig(() => app.addJoint(parent, name)),
    deleteJoint: (joint) => editRig(() => app.deleteJoint(joint)),
    renameJoint: (joint, name) => editRig(() => app.renameJoint(joint, name)),
    reparentJoint: (joint, parent) => editRig(() => app.reparentJoint(joint, parent)),
    undo: () => editRig(() => app.undo()),
    redo: () => editRig(() => app.redo()),
    // Fits the weights to the skeleton again, replacing painted ones (undoable).
    recomputeWeights: () => editRig(() => app.recomputeWeights()),
    weightsPainted: () => app.weightsPainted(),
    // One dab of the brush on `joint` at the surface point `at` ([x, y, z]); options
    // { mode, radius, strength, mirror, newStroke } default to the page's brush settings.
    paint: (joint, at, options) => editRig(() => ctx.paintAt(joint, at, options)),
  };

  const pick = (e) => app.pickJoint(e.offsetX, e.offsetY, canvas.clientWidth, canvas.clientHeight);
  // Fingers on the viewport: two pinch to zoom and move together to pan.
  const touches = new Map();
  const pinchOf = () => {
    const [a, b] = [...touches.values()];
    return { pinch: true, distance: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, joint: -1 };
  };
  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'touch') {
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (touches.size === 2) {
        // The first finger's drag ends where it is; the two fingers now move the view.
        if (drag && drag.paint) ctx.brush.end();
        if (drag && drag.joint >= 0 && $('mode').value === 'edit') quietly(() => { app.endDrag(); afterEdit(); });
        drag = pinchOf();
        canvas.setPointerCapture(e.pointerId);
        return;
      }
    }
    const mode = $('mode').value;
    const joint = e.button === 0 && !e.shiftKey ? pick(e) : -1;
    drag = { x: e.clientX, y: e.clientY, pan: e.button !== 0 || e.shiftKey, joint: -1, paint: false };
    // Painting: a joint is chosen by clicking it; a drag on the body paints, beside it (or
    // with Alt) it turns the view.
    if (mode === 'paint' && joint < 0 && e.button === 0 && !e.shiftKey && !e.altKey) {
      drag.paint = ctx.brush.begin(e);
    }
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
    if (touches.has(e.pointerId)) touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (drag && drag.pinch) {
      if (touches.size < 2) return;
      const now = pinchOf();
      // Each 10 % of spread is one zoom step.
      if (drag.distance > 0 && now.distance > 0) app.zoom(Math.log(now.distance / drag.distance) / Math.log(1 / 0.9));
      app.pan(now.x - drag.x, now.y - drag.y);
      drag = now;
      ctx.redraw();
      return;
    }
    if ($('mode').value === 'paint' && (!drag || drag.paint)) {
      ctx.brush.move(e);
      if (drag) return;
    }
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
    ctx.redraw();
  });
  const lift = (e) => {
    touches.delete(e.pointerId);
    if (drag && drag.pinch && touches.size < 2) drag = null;
  };
  canvas.addEventListener('pointercancel', lift);
  canvas.addEventListener('pointerup', (e) => {
    if (drag && drag.pinch) {
      lift(e);
      return;
    }
    touches.delete(e.pointerId);
    if (drag && drag.paint) ctx.brush.end();
    if (drag && drag.joint >= 0 && $('mode').value === 'edit') {
      try {
        const ms = app.endDrag();
        $('status-edit').textContent = app.weightsPainted()
          ? 'joint moved; painted weights kept'
          : `joint moved, re-skinned in ${ms.toFixed(0)} ms`;
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
    ctx.redraw();
  }, { passive: false });
  const frameModel = () => { app.frame(); ctx.redraw(); };
  $('frame-button').addEventListener('click', frameModel);
  canvas.addEventListener('dblclick', frameModel);
  addEventListener('keydown', (e) => { if (e.key === 'f' || e.key === 'F') frameModel(); });

  $('mode').addEventListener('change', (e) => {
    const mode = e.target.value;
    $('edit-tools').hidden = mode !== 'edit';
    $('paint-tools').hidden = mode !== 'paint';
    $('reset-pose').hidden = mode !== 'pose';
    if (mode !== 'paint') ctx.brush.hide();
    if (mode !== 'pose') app.resetPose();
    else if (ctx.selected >= 0) app.showGizmo(ctx.selected);
    if (mode === 'edit') app.prepareEdits();
    ctx.redraw();
  });
  const needSelection = () => {
    if (ctx.selected < 0) showError('Select a joint first: click it in the viewport');
    return ctx.selected >= 0;
  };
  const quietly = (run) => { try { run(); } catch (_) { /* shown in the banner */ } };
  $('add-joint').addEventListener('click', () => {
    if (needSelection()) quietly(() => selectJoint(edits.addJoint(ctx.selected)));
  });
  $('delete-joint').addEventListener('click', () => {
    if (needSelection()) quietly(() => { edits.deleteJoint(ctx.selected); selectJoint(-1); });
  });
  $('rename-joint').addEventListener('click', () => {
    if (!needSelection()) return;
    const name = prompt('New name', app.jointNames()[ctx.selected]);
    if (name !== null) quietly(() => edits.renameJoint(ctx.selected, name));
  });
  $('parent-joint').addEventListener('change', (e) => {
    if (e.target.value === '' || !needSelection()) return;
    quietly(() => selectJoint(edits.reparentJoint(ctx.selected, Number(e.target.value))));
  });
  $('edit-mirror').addEventListener('change', (e) => app.setMirror(e.target.checked));
  $('recompute-weights').addEventListener('click', () => quietly(() => {
    const ms = edits.recomputeWeights();
    $('status-edit').textContent = `weights recomputed in ${ms.toFixed(0)} ms`;
  }));
  $('undo').addEventListener('click', () => quietly(edits.undo));
  $('redo').addEventListener('click', () => quietly(edits.redo));
  $('reset-pose').addEventListener('click', () => { app.resetPose(); ctx.redraw(); });
  addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.target instanceof HTMLInputElement) return;
    const key = e.key.toLowerCase();
    if (key === 'z' || key === 'y') {
      e.preventDefault();
      quietly(() => { if (key === 'y' || e.shiftKey) edits.redo(); else edits.undo(); });
    }
  });
  $('weights-joint').addEventListener('change', (e) => {
    const joint = Number(e.target.value);
    if (joint >= 0 && $('corrective-difference').checked) ctx.setDifference(false);
    app.showWeights(joint);
    $('legend').hidden = joint < 0;
    ctx.redraw();
  });

  Object.assign(ctx, { selectJoint, listJoints, listInfluence, afterEdit, edits });
}
