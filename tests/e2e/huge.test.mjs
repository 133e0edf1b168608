// A huge character rigged in the page: the eval mannequin subdivided four times (1.84 M
// vertices, a 146 MB GLB, written by the native CLI that `cargo test` builds, which CI runs
// first) is fetched from the page's origin and rigged as the Rig button does, in the worker,
// skinned on a proxy, while the page keeps answering; the rig replaces what was shown. Its
// times go to target/e2e/huge.json (a benchmark, not an assertion). CPU backend. With the
// module's memory capped (as a browser that allows WebAssembly less than 4 GB would), the same
// file ends with a message naming memory, the character stays, and a new worker rigs the next.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { data } from './data.mjs';
import { serve } from './server.mjs';
import { launch, openApp } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const dist = process.env.RIGKIT_DIST || path.join(repo, 'dist');
const targetDir = process.env.CARGO_TARGET_DIR || path.join(os.homedir(), '.cache', 'rigkit', 'target');
const cli = path.join(targetDir, 'debug', 'rigkit');
const huge = path.join(repo, 'target', 'e2e', 'huge', 'mannequiny-x4.glb');

let server;
before(async () => {
  assert.ok(fs.existsSync(cli), `${cli} is missing: run \`cargo test\` first (CI does)`);
  fs.mkdirSync(path.dirname(huge), { recursive: true });
  execFileSync(cli, ['convert', path.join(data, 'eval', 'mannequiny.glb'), huge, '--subdivide', '4', '--no-animations'],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  server = await serve(dist, { '/huge/mannequiny-x4.glb': huge });
});
after(async () => {
  if (server) await server.close();
  fs.rmSync(path.dirname(huge), { recursive: true, force: true });
});

test('a 1.8 M-vertex, 146 MB character is rigged in the page while the page keeps answering', async () => {
  const browser = await launch({ webgpu: false });
  try {
    const { page, errors } = await openApp(browser.context, server.url);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.joints > 0, null, { timeout: 120000 });
    // The file comes from this page's own origin (the policy allows nothing else).
    const started = Date.now();
    await page.evaluate(() => {
      window.hugeRig = fetch('huge/mannequiny-x4.glb')
        .then((response) => response.arrayBuffer())
        .then((bytes) => window.rigkit.rig(new Uint8Array(bytes), 'mannequiny-x4.glb', { template: 'auto' }))
        .then((rig) => { window.hugeRig = { rig }; }, (e) => { window.hugeRig = { error: e.message }; });
    });
    // While it rigs, the page keeps answering: a round trip at least every half second.
    let answered = 0;
    let slowest = 0;
    let outcome = null;
    while (!outcome && Date.now() - started < 300000) {
      const ping = Date.now();
      outcome = await page.evaluate(() => {
        const done = window.hugeRig;
        if (!done || done.then) return null;
        return done.error ? { error: done.error } : { rigged: { ...window.rigkit.current, jointCount: done.rig.jointCount } };
      });
      answered += 1;
      slowest = Math.max(slowest, Date.now() - ping);
      await new Promise((r) => setTimeout(r, 500));
    }
    const seconds = (Date.now() - started) / 1000;
    fs.writeFileSync(path.join(repo, 'target', 'e2e', 'huge.json'), JSON.stringify({ seconds, answered, slowestAnswerMs: slowest, outcome }, null, 2));
    assert.ok(outcome, `no rig and no message after ${seconds} s`);
    assert.equal(outcome.error, undefined, outcome.error);
    assert.equal(outcome.rigged.vertices, 1836462);
    assert.equal(outcome.rigged.name, 'mannequiny-x4-rigged.glb');
    assert.ok(outcome.rigged.jointCount >= 20, JSON.stringify(outcome.rigged));
    assert.ok(answered >= 5, `the page answered ${answered} times while rigging`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

// `bytes` (a wasm module) with its memory capped at `pages` of 64 KiB: what a browser that
// lets WebAssembly have less than 4 GB does to rigkit, at a size this machine can reach.
function capMemory(bytes, pages) {
  const leb = (n) => {
    const out = [];
    do {
      let b = n & 0x7f;
      n >>>= 7;
      if (n) b |= 0x80;
      out.push(b);
    } while (n);
    return out;
  };
  const read = (at) => {
    let n = 0;
    let shift = 0;
    let b;
    do {
      b = bytes[at++];
      n += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return [n, at];
  };
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, body] = read(at + 1);
    if (id === 5) {
      const [, limits] = read(body); // one memory
      const [min] = read(limits + 1);
      const section = [1, 1, ...leb(min), ...leb(pages)];
      return Buffer.concat([
        bytes.subarray(0, at), Buffer.from([5, ...leb(section.length), ...section]),
        bytes.subarray(body + size),
      ]);
    }
    at = body + size;
  }
  throw new Error('no memory section');
}

test('a file past the memory the page has ends with a message naming memory, and the next rig works', async () => {
  const browser = await launch({ webgpu: false });
  try {
    const wasm = capMemory(fs.readFileSync(path.join(dist, 'rigkit_bg.wasm')), 8192); // 512 MB
    await browser.context.route('**/rigkit_bg.wasm', (route) =>
      route.fulfill({ status: 200, contentType: 'application/wasm', body: wasm }));
    const { page } = await openApp(browser.context, server.url);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.joints > 0, null, { timeout: 120000 });
    const before = await page.evaluate(() => ({ ...window.rigkit.current }));
    const error = await page.evaluate(() => fetch('huge/mannequiny-x4.glb')
      .then((response) => response.arrayBuffer())
      .then((bytes) => window.rigkit.rig(new Uint8Array(bytes), 'mannequiny-x4.glb', { template: 'auto' }))
      .then(() => null, (e) => e.message));
    assert.match(error || '', /needs more memory than the page can give it/);
    assert.match(await page.textContent('#error-text'), /needs more memory than the page can give it/);
    assert.ok(await page.isVisible('#error-banner'));
    const kept = await page.evaluate(() => ({ ...window.rigkit.current }));
    assert.equal(kept.name, before.name);
    assert.equal(kept.vertices, before.vertices);
    // A fresh worker rigs the next file.
    const next = await page.evaluate(() => fetch('web/samples/fox.glb')
      .then((response) => response.arrayBuffer())
      .then((bytes) => window.rigkit.rig(new Uint8Array(bytes), 'fox.glb', { template: 'free' }))
      .then((rig) => ({ joints: rig.jointCount }), (e) => ({ error: e.message })));
    assert.equal(next.error, undefined, next.error);
    assert.ok(next.joints > 5, JSON.stringify(next));
  } finally {
    await browser.close();
  }
});
