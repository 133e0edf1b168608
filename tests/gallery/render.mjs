// Renders a gallery of rigged GLBs with the app itself: each file is dropped on the page, its
// viewport (mesh + skeleton) captured, and the captures laid out in one labelled PNG.
//
//   node tests/gallery/render.mjs DIR_OF_GLBS OUT.png
//
// Needs the built page (dist/) and the test tools (tests/node_modules): see the README.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { serve } from '../e2e/server.mjs';
import { dropFiles, launch, openApp } from '../e2e/browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error('usage: node tests/gallery/render.mjs DIR_OF_GLBS OUT.png');
  process.exit(2);
}
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.glb')).sort();
const server = await serve(process.env.RIGKIT_DIST || path.join(repo, 'dist'));
const browser = await launch({ webgpu: false });
try {
  const { page, errors } = await openApp(browser.context, server.url);
  const tiles = [];
  for (const name of files) {
    await dropFiles(page, [{ name, bytes: fs.readFileSync(path.join(dir, name)) }]);
    await page.waitForFunction((n) => window.rigkit.current && window.rigkit.current.name === n, name);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const png = await page.locator('#viewport').screenshot();
    const current = await page.evaluate(() => window.rigkit.current);
    tiles.push({ label: `${name.replace(/\.glb$/, '')} · ${current.joints} joints`, src: `data:image/png;base64,${png.toString('base64')}` });
  }
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  const sheet = await page.evaluate(async (list) => {
    const cols = Math.min(5, list.length);
    const rows = Math.ceil(list.length / cols);
    const [w, h] = [320, 240];
    const canvas = document.createElement('canvas');
    canvas.width = cols * w;
    canvas.height = rows * (h + 24);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#1b1d22';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    for (const [i, tile] of list.entries()) {
      const img = new Image();
      img.src = tile.src;
      await img.decode();
      // Crop to what differs from the background (its row's left-edge pixel), with a margin.
      const probe = document.createElement('canvas');
      [probe.width, probe.height] = [img.width, img.height];
      const pctx = probe.getContext('2d', { willReadFrequently: true });
      pctx.drawImage(img, 0, 0);
      const { data } = pctx.getImageData(0, 0, img.width, img.height);
      let [x0, y0, x1, y1] = [img.width, img.height, 0, 0];
      for (let py = 0; py < img.height; py++) {
        for (let px = 0; px < img.width; px++) {
          const o = (py * img.width + px) * 4;
          const r = py * img.width * 4;
          if (Math.abs(data[o] - data[r]) + Math.abs(data[o + 1] - data[r + 1]) + Math.abs(data[o + 2] - data[r + 2]) > 40) {
            [x0, y0, x1, y1] = [Math.min(x0, px), Math.min(y0, py), Math.max(x1, px), Math.max(y1, py)];
          }
        }
      }
      const pad = 12;
      [x0, y0] = [Math.max(0, x0 - pad), Math.max(0, y0 - pad)];
      [x1, y1] = [Math.min(img.width, x1 + pad), Math.min(img.height, y1 + pad)];
      if (x1 <= x0 || y1 <= y0) [x0, y0, x1, y1] = [0, 0, img.width, img.height];
      const [sw, sh] = [x1 - x0, y1 - y0];
      const [x, y] = [(i % cols) * w, Math.floor(i / cols) * (h + 24)];
      const scale = Math.min(w / sw, h / sh);
      const [dw, dh] = [sw * scale, sh * scale];
      ctx.drawImage(img, x0, y0, sw, sh, x + (w - dw) / 2, y + (h - dh) / 2, dw, dh);
      ctx.fillStyle = '#e8e8e8';
      ctx.font = '14px sans-serif';
      ctx.fillText(tile.label, x + 8, y + h + 17);
    }
    return canvas.toDataURL('image/png').split(',')[1];
  }, tiles);
  fs.writeFileSync(out, Buffer.from(sheet, 'base64'));
  console.log(`wrote ${out}: ${tiles.length} characters`);
} finally {
  await browser.close();
  server.close();
}
