// Determinism: the same file and options give the same rig twice in the page (byte for byte,
// the template carried on helper workers), and the page's rig agrees with the native one
// (written by the native test `the_same_input_rigs_to_the_same_bytes`, which CI runs first):
// the same joints, each within 10⁻⁴ of the character's longest side. CPU backend.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { readData } from './data.mjs';
import { serve } from './server.mjs';
import { launch, openApp, toBase64 } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const dist = process.env.RIGKIT_DIST || path.join(repo, 'dist');
const nativeRig = path.join(repo, 'target', 'e2e', 'native-rig-CesiumMan.json');
// How far a page joint may lie from the native one, as a share of the longest side: the wasm
// and native builds round differently (SIMD widths, fused multiply-adds), nothing more.
const TOLERANCE = 1e-4;

let server;
before(async () => { server = await serve(dist); });
after(async () => server && server.close());

test('a file rigs to the same bytes twice in the page, and to the native rig\'s joints', async () => {
  assert.ok(fs.existsSync(nativeRig), `${nativeRig} is missing: run \`cargo test --test rig\` first (CI does)`);
  const native = JSON.parse(fs.readFileSync(nativeRig, 'utf8'));
  const browser = await launch({ webgpu: false });
  try {
    const { page, errors } = await openApp(browser.context, server.url);
    const rigTwice = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const rigs = [];
      for (let i = 0; i < 2; i++) {
        const rig = await window.rigkit.rig(bytes, 'CesiumMan.glb', { template: 'auto', method: 'best', maxInfluences: 4 });
        const glb = window.rigkit.exportGlb();
        rigs.push({ names: rig.names, joints: [...rig.joints], glb: Array.from(glb) });
      }
      return rigs;
    }, toBase64(readData('eval/CesiumMan.glb').bytes));
    const [first, second] = rigTwice;
    assert.equal(first.glb.length, second.glb.length);
    assert.ok(first.glb.every((b, i) => b === second.glb[i]), 'the second rig in the page differs from the first');

    assert.deepEqual(first.names, native.names);
    let farthest = 0;
    for (let i = 0; i < native.joints.length; i++) {
      farthest = Math.max(farthest, Math.abs(first.joints[i] - native.joints[i]) / native.longest_side);
    }
    fs.writeFileSync(path.join(repo, 'target', 'e2e', 'determinism.json'), JSON.stringify({ farthest }, null, 2));
    assert.ok(farthest <= TOLERANCE, `a page joint lies ${farthest} of the longest side from the native one`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
