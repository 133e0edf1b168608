// The render loop shared by the page and embedded viewers: each animation frame, the canvas
// follows its display size and `app` draws when something asked for a frame.

// Starts drawing `app` on `canvas`; `onFrame(seconds since the last frame)` runs first each
// frame (playback). Returns `{ redraw, stop }`: ask for a frame, stop drawing.
export function startFrames(canvas, app, onFrame = null) {
  let dirty = true;
  let running = true;
  let last = performance.now();
  const frame = () => {
    if (!running) return;
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const height = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      dirty = true;
    }
    const now = performance.now();
    if (onFrame) onFrame((now - last) / 1000);
    last = now;
    if (dirty) {
      dirty = false;
      app.render(width, height);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return { redraw: () => { dirty = true; }, stop: () => { running = false; } };
}
