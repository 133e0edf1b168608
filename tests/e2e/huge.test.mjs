// A huge character rigged in the page: the eval mannequin subdivided four times (1.84 M
// vertices, a 146 MB GLB, written by the native CLI that `cargo test` builds, which CI runs
// first) is fetched from the page's origin and rigged as the Rig button does, in the worker,
// skinned on a proxy, while the page keeps answering; the rig replaces what was shown. Its
// times go to target/e2e/huge.json (a benchmark, not an assertion). CPU backend.
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
