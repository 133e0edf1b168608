// Files in and out: the file picker, drag and drop, the sample characters, and the download.
// What a dropped file means (a character to show, a capture to retarget, a mesh to rig) is
// decided in Rust (`openFiles`); this module reads the files and updates the page.

import { $, clearError, reported, showError } from './ui.js';

export function setupInput(ctx) {
  const { app } = ctx;
  // The files of the character shown, for rigging it again.
  ctx.shownFiles = null;

  // After a character is shown: the status bar, joint list and motions follow it; one
  // without a skeleton is then rigged (when `rig`).
  function shown(info, files, rig) {
    clearError();
    ctx.redraw();
    $('status-file').textContent =
      `${info.name}: ${info.vertices.toLocaleString()} vertices, ${info.joints} joints`;
    const { needsRig, ...summary } = info;
    $('rig-summary').textContent = needsRig
      ? `${info.name}: ${info.vertices.toLocaleString()} vertices, no skeleton yet.`
      : `${info.name}: ${info.vertices.toLocaleString()} vertices, a skeleton of ${info.joints} joints.`;
    $('rig-button').textContent = needsRig ? 'Rig it' : 'Rig it again';
    ctx.current = { ...summary, backend: ctx.backend.label };
    ctx.shownFiles = files;
    ctx.listJoints();
    ctx.listMotions();
    if (rig && needsRig) return ctx.rigFiles(files);
    return ctx.current;
  }

  // Imports files (a .gltf with its .bin, an .obj with its .mtl) and shows the character; a
  // mesh without a skeleton is then rigged. Throws (and shows a banner) on a bad file; what
  // was shown before stays.
  async function loadFiles(files, { rig = true } = {}) {
    if (!Array.isArray(files) || files.length === 0 || files.some((f) => !(f.bytes instanceof Uint8Array))) {
      throw new TypeError('rigkit.loadFiles expects [{ name, bytes: Uint8Array }, …]');
    }
    const info = reported(() => app.loadFiles(files.map((f) => String(f.name)), files.map((f) => f.bytes)));
    return shown(info, files, rig);
  }
  const load = (bytes, name) => loadFiles([{ name, bytes }]);

  // Files picked or dropped together: Rust says whether they are a character or a capture
  // to play on the character shown.
  async function openUserFiles(fileList) {
    const files = await Promise.all([...fileList].map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
    if (files.length === 0) return;
    try {
      const opened = reported(() => app.openFiles(files.map((f) => f.name), files.map((f) => f.bytes)));
      if (opened.clip !== undefined) ctx.addMotion(() => opened.clip);
      else await shown(opened, files, true);
    } catch (_) {
      // Shown in the banner.
    }
  }

  // Sample characters: fetched from the page's own folder; unrigged ones are rigged with the
  // template that suits them.
  async function openSample(file, template) {
    const response = await fetch(`web/samples/${file}`);
    if (!response.ok) throw new Error(`cannot open the sample ${file}: HTTP ${response.status}`);
    $('template').value = template;
    return loadFiles([{ name: file, bytes: new Uint8Array(await response.arrayBuffer()) }]);
  }

  const exportGlb = () => app.exportGlb(Number($('max-influences').value));
  // The character as `format` ('glb', 'fbx' or 'vrm'), with the influence count and the
  // bone names chosen in the page unless `boneNames` says otherwise.
  const exportAs = (format, boneNames = $('bone-names').value) =>
    app.exportAs(String(format), Number($('max-influences').value), String(boneNames || ''));

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
  for (const button of document.querySelectorAll('[data-sample]')) {
    button.addEventListener('click', () => {
      openSample(button.dataset.sample, button.dataset.template).catch((err) => showError(err.message));
    });
  }

  // The format chosen in the Download step; every download button uses it.
  const chosenFormat = () => document.querySelector('input[name="download-format"]:checked').value;
  // Saves the character in the chosen format as a file in the user's downloads.
  function download() {
    try {
      const format = chosenFormat();
      const type = format === 'glb' ? 'model/gltf-binary' : 'application/octet-stream';
      const blob = new Blob([exportAs(format)], { type });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      const base = (ctx.current && ctx.current.name ? ctx.current.name : 'character').replace(/\.[^.]*$/, '').replace(/-rigged$/, '');
      a.download = `${base}-rigkit.${format}`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (e) {
      showError(e.message || String(e));
    }
  }
  $('download-button').addEventListener('click', download);
  $('download-now').addEventListener('click', download);

  Object.assign(ctx, { loadFiles, load, openUserFiles, openSample, exportGlb, exportAs });
}
