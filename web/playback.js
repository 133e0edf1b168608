// The motion picker and the timeline. Playback itself (which clip, where in it, how fast,
// whether it runs) is kept by the Rust document; this module shows it and forwards clicks.

import { $, reported } from './ui.js';

export function setupPlayback(ctx) {
  const { app } = ctx;

  function setControls(playing, enabled) {
    $('play-button').textContent = playing ? 'Pause' : 'Play';
    $('play-button').disabled = !enabled;
    $('timeline').disabled = !enabled;
  }

  // Moves the timeline to where playback stands and asks for a new frame.
  function showTime() {
    const p = app.playback();
    $('timeline').value = String(p.duration > 0 ? p.time / p.duration : 0);
    $('time-label').textContent = `${p.time.toFixed(2)} s`;
    ctx.redraw();
  }

  // The character's clips, then the motions rigkit can make for it.
  function listMotions() {
    const select = $('motion');
    select.replaceChildren(new Option('(rest pose)', ''));
    for (const m of app.motions()) {
      const label = m.kind === 'clip' ? `${m.name} (clip, ${m.duration.toFixed(1)} s)` : `${m.name} (generated)`;
      select.add(new Option(label, m.kind === 'clip' ? `clip:${m.index}` : `gen:${m.name}`));
    }
    setControls(false, false);
  }

  // Starts clip `index` of the character from its beginning.
  function playClip(index) {
    const duration = app.play(index);
    setControls(true, true);
    showTime();
    return { index, duration };
  }

  // Runs `make` (which adds a clip and returns its index), relists, and plays the new clip.
  function addMotion(make) {
    const index = reported(make);
    listMotions();
    $('motion').value = `clip:${index}`;
    return playClip(index);
  }
  const animate = (name) => addMotion(() => app.animate(name));
  const retarget = (bytes, name) => addMotion(() => app.retargetFile(bytes, name));

  function restPose() {
    app.resetPose();
    $('motion').value = '';
    setControls(false, false);
    $('time-label').textContent = '0.00 s';
    ctx.redraw();
  }

  function pause() {
    app.setPlaying(false);
    setControls(false, app.playback().index !== null);
  }

  function seek(time) {
    app.pose(time);
    showTime();
  }

  function setSpeed(speed) {
    app.setSpeed(speed);
    $('speed').value = String(speed);
  }

  // Called once per animation frame with the seconds since the last one.
  function tick(seconds) {
    if (app.tick(seconds)) showTime();
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
    const p = app.playback();
    if (p.index === null) return;
    app.setPlaying(!p.playing);
    setControls(!p.playing, true);
  });
  $('timeline').addEventListener('input', (e) => seek(Number(e.target.value) * app.playback().duration));
  $('speed').addEventListener('change', (e) => app.setSpeed(Number(e.target.value)));
  $('clip-input').addEventListener('change', async (e) => {
    const [file] = e.target.files;
    e.target.value = '';
    if (!file) return;
    try {
      retarget(new Uint8Array(await file.arrayBuffer()), file.name);
    } catch (_) {
      // Shown in the banner.
    }
  });

  Object.assign(ctx, { listMotions, playClip, addMotion, animate, retarget, restPose, pause, seek, setSpeed, tick });
}
