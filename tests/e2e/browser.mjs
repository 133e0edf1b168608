// Launches Debian's Chromium headless through playwright-core, with the flags that give a
// WebGPU adapter (SwiftShader), a WebGPU canvas and WebGL2 together on machines without a GPU.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const BASE_ARGS = [
  '--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
  // Playwright passes its own --enable-features; the last one wins, so keep its two.
  '--enable-features=Vulkan,CDPScreenshotNewSurface,SkipListAccountsWithoutGaiaCookies',
  '--use-vulkan=swiftshader', '--use-angle=swiftshader',
];

/** Opens a browser context; `webgpu: false` leaves WebGPU off so the CPU fallback runs. */
export async function launch({ webgpu = true } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rigkit-pw-'));
  const args = webgpu ? [...BASE_ARGS, '--enable-unsafe-webgpu'] : BASE_ARGS;
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    timeout: 60000,
    viewport: { width: 960, height: 640 },
    args,
  });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the app in a new page and waits until `window.rigkit` is ready. Records page errors and
 * every request, so tests can assert there were no errors and no request left the origin.
 */
export async function openApp(context, url) {
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(url);
  await page.waitForFunction(() => window.rigkit && window.rigkit.ready, null, { timeout: 120000 });
  return { page, errors, requests };
}

/** Drops files on the page the way a user's drag-and-drop does. */
export async function dropFiles(page, files) {
  // Base64 crosses into the page far faster than an array of numbers.
  const payload = files.map((f) => ({ name: f.name, base64: Buffer.from(f.bytes).toString('base64') }));
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], f.name));
    }
    return dt;
  }, payload);
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await page.dispatchEvent('#viewport', type, { dataTransfer });
  }
}

/** `bytes` as a base64 string, to hand to `page.evaluate` and turn back with `fromBase64`. */
export const toBase64 = (bytes) => Buffer.from(bytes).toString('base64');

/**
 * Reads the viewport's pixels: how many distinct colours, how many pixels of the skeleton's
 * bone/joint colours, and a cheap hash to tell frames apart.
 */
export async function viewportPixels(page) {
  await keepViewport(page, 'latest');
  return page.evaluate(() => {
    const { width, height, data } = window.__kept.latest;
    const colours = new Set();
    let skeleton = 0;
    let hash = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
      colours.add((r << 16) | (g << 8) | b);
      // Bone orange (255,153,51) and joint cream (255,236,180), unlit.
      if (r > 240 && ((Math.abs(g - 153) < 14 && b < 70) || (g > 222 && Math.abs(b - 180) < 14))) skeleton++;
      hash = (hash * 31 + r + 7 * g + 13 * b) | 0;
    }
    return { width, height, colours: colours.size, skeleton, hash };
  });
}

/**
 * Keeps the viewport's pixels in the page under `slot` (after the latest change is drawn),
 * for `viewportDifference`.
 */
export async function keepViewport(page, slot) {
  // Two animation frames so the latest change has been drawn.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.evaluate((slot) => {
    const canvas = document.getElementById('viewport');
    const off = document.createElement('canvas');
    off.width = canvas.width;
    off.height = canvas.height;
    const ctx = off.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(canvas, 0, 0);
    window.__kept = window.__kept || {};
    window.__kept[slot] = ctx.getImageData(0, 0, off.width, off.height);
  }, slot);
}

/**
 * The share of pixels of two kept viewports that differ by more than `tolerance` (0–255) in
 * some channel.
 */
export async function viewportDifference(page, a, b, tolerance = 24) {
  return page.evaluate(([a, b, tolerance]) => {
    const [x, y] = [window.__kept[a].data, window.__kept[b].data];
    if (x.length !== y.length) return 1;
    let differing = 0;
    for (let i = 0; i < x.length; i += 4) {
      if (Math.abs(x[i] - y[i]) > tolerance || Math.abs(x[i + 1] - y[i + 1]) > tolerance
        || Math.abs(x[i + 2] - y[i + 2]) > tolerance) differing++;
    }
    return differing / (x.length / 4);
  }, [a, b, tolerance]);
}
