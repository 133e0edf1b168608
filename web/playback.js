// The motion picker and the timeline. Playback itself (which clip, where in it, how fast,
// whether it runs) is kept by the Rust document; this module shows it and forwards clicks.

import { $, button, reported } from './ui.js';

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

  // Marks the motion playing (`clip:N`, or '' for the rest pose) among the buttons.
  function markPlaying(value) {
    for (const b of $('motion-list').children) b.setAttribute('aria-pressed', String(b.dataset.motion === value));
  }

  // The character's clips, then the motions rigkit can make for it, as buttons; a character
  // without a skeleton gets a sentence saying why there is nothing to play.
  function listMotions() {
    const list = $('motion-list');
    const motionButton = (label, value, title) => {
      const b = button(label, title, () => choose(value));
      b.dataset.motion = value;
      return b;
    };
    const motions = app.motions();
    list.replaceChildren();
    if (motions.length === 0) {
      const p = document.createElement('p');
      p.className = 'lead';
      p.textContent = app.jointNames().length === 0
        ? 'Rig the character first (step 1): motions need a skeleton.'
        : 'This skeleton has no parts the generated motions move; load a clip instead.';
      list.append(p);
    } else {
      list.append(motionButton('Rest pose', '', 'Stop and show the rest pose'));
      // A generated motion already made (a clip of its name) is listed once, as the clip.
      const clips = new Set(motions.filter((m) => m.kind === 'clip').map((m) => m.name));
      for (const m of motions) {
        if (m.kind === 'clip') list.append(motionButton(m.name || `clip ${m.index + 1}`, `clip:${m.index}`, `The character's clip, ${m.duration.toFixed(1)} s`));
        else if (!clips.has(m.name)) list.append(motionButton(m.name, `gen:${m.name}`, `Generate a ${m.name} for this skeleton`));
      }
    }
    markPlaying('');
    setControls(false, false);
  }

  // Plays what a motion button stands for.
  function choose(value) {
    try {
      if (value === '') restPose();
      else if (value.startsWith('clip:')) playClip(Number(value.slice(5)));
      else animate(value.slice(4));
    } catch (_) {
      // Shown in the banner.
    }
  }

  // Starts clip `index` of the character from its beginning.
  function playClip(index) {
    const duration = app.play(index);
    markPlaying(`clip:${index}`);
    setControls(true, true);
    showTime();
    return { index, duration };
  }

  // Runs `make` (which adds a clip and returns its index), relists, and plays the new clip.
  function addMotion(make) {
    const index = reported(make);
    listMotions();
    return playClip(index);
  }
  const animate = (name) => addMotion(() => app.animate(name));
  const retarget = (bytes, name) => addMotion(() => app.retargetFile(bytes, name));

  function restPose() {
    app.resetPose();
    markPlaying('');
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
