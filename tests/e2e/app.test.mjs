// End-to-end tests of the built page (dist/) in headless Chromium: WebGPU on SwiftShader, the
// CPU fallback, drag-and-drop of real characters, error handling and the no-network promise.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import validator from 'gltf-validator';

import { data, readData } from './data.mjs';
import { serve } from './server.mjs';
import { dropFiles, keepViewport, launch, openApp, viewportDifference, viewportPixels } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const dist = process.env.RIGKIT_DIST || path.join(repo, 'dist');
const artifacts = path.join(repo, 'target', 'e2e');
const bin = process.env.RIGKIT_BIN
  || path.join(process.env.CARGO_TARGET_DIR || path.join(repo, 'target'), 'debug', 'rigkit');
fs.mkdirSync(artifacts, { recursive: true });

/** Every request must stay on the page's own origin: rigkit never uploads anything. */
function assertSameOrigin(requests, origin) {
  const foreign = requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, [], 'requests left the page origin');
}

/** Rigs the data file `rel` in the page with the neural method: `{ jointCount, current }`. */
async function rigNeural(page, rel, name) {
  const bytes = [...readData(rel).bytes];
  return page.evaluate(async ([b, n]) => {
    const result = await window.rigkit.rig(new Uint8Array(b), n, { method: 'neural' });
    return { jointCount: result.jointCount, current: window.rigkit.current };
  }, [bytes, name]);
}

let server;
before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), `no built page in ${dist}: run trunk build first`);
  server = await serve(dist);
});
after(async () => server && server.close());

describe('with WebGPU (SwiftShader adapter)', () => {
  let browser;
  let app;
  before(async () => {
    browser = await launch({ webgpu: true });
    app = await openApp(browser.context, server.url);
  });
  after(async () => browser && browser.close());

  test('opens on the sample character with its skeleton drawn', async () => {
    const { page, errors } = app;
    const current = await page.evaluate(() => window.rigkit.current);
    assert.equal(current.name, 'human-zombie.glb');
    assert.ok(current.vertices > 1000, `sample has ${current.vertices} vertices`);
    assert.ok(current.joints >= 20, `sample has ${current.joints} joints`);
    assert.match(await page.textContent('#status-file'), /vertices, \d+ joints/);
    const pixels = await viewportPixels(page);
    await page.screenshot({ path: path.join(artifacts, 'sample-webgpu.png') });
    assert.ok(pixels.colours > 50, `viewport looks blank (${pixels.colours} colours)`);
    assert.ok(pixels.skeleton > 100, `skeleton not visible (${pixels.skeleton} skeleton pixels)`);
    assert.deepEqual(errors, []);
  });

  test('uses the WebGPU adapter and it agrees with the CPU backend', async () => {
    const { page } = app;
    const backend = await page.evaluate(() => window.rigkit.backend);
    assert.match(backend, /^WebGPU: \S/);
    assert.equal(await page.textContent('#status-backend'), backend);
    const check = await page.evaluate(() => window.rigkit.checkBackends());
    assert.ok(check.vertices > 1000);
    assert.ok(check.cpuVsReference < 1e-5, `CPU vs reference ${check.cpuVsReference}`);
    assert.ok(check.gpuVsCpu !== null && check.gpuVsCpu < 1e-5, `WebGPU vs CPU ${check.gpuVsCpu}`);
    // The networks: the same rig on both backends (joints within 1e-4 of the longest side,
    // weights within 1e-3).
    assert.ok(check.neural.joints < 1e-4, `joint head WebGPU vs CPU ${check.neural.joints}`);
    assert.ok(check.neural.weights < 1e-3, `skin head WebGPU vs CPU ${check.neural.weights}`);
  });

  test('a dropped GLB replaces the sample in the viewport', async () => {
    const { page, errors } = app;
    const before = await viewportPixels(page);
    await dropFiles(page, [readData('eval/Fox.glb')]);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'Fox.glb');
    const current = await page.evaluate(() => window.rigkit.current);
    assert.equal(current.joints, 24);
    assert.equal(current.vertices, 1728);
    const afterDrop = await viewportPixels(page);
    await page.screenshot({ path: path.join(artifacts, 'fox-dropped.png') });
    assert.ok(afterDrop.colours > 50, 'viewport blank after drop');
    assert.notEqual(afterDrop.hash, before.hash, 'viewport did not change after the drop');
    assert.ok(afterDrop.skeleton > 50, 'dropped skeleton not visible');
    assert.deepEqual(errors, []);
  });

  test('a glTF dropped with its .bin, an FBX, a COLLADA file and an OBJ, open too', async () => {
    const { page, errors } = app;
    // Fox.glb as a .gltf document plus a separate, percent-encoded .bin.
    const glb = readData('eval/Fox.glb').bytes;
    const jsonLength = glb.readUInt32LE(12);
    const doc = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
    doc.buffers[0].uri = 'fox%20data.bin';
    const bin = glb.subarray(20 + jsonLength + 8);
    await dropFiles(page, [
      { name: 'fox data.bin', bytes: bin },
      { name: 'fox.gltf', bytes: Buffer.from(JSON.stringify(doc)) },
    ]);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'fox.gltf');
    assert.equal(await page.evaluate(() => window.rigkit.current.joints), 24);

    // Blender's binary FBX export of a rigged human: its own skeleton and weights come in.
    await dropFiles(page, [{ name: 'human-zombie.fbx', bytes: readData('fbx/human-zombie.fbx').bytes }]);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'human-zombie.fbx');
    const fbx = await page.evaluate(() => window.rigkit.current);
    assert.equal(fbx.joints, 42);
    assert.equal(fbx.vertices, 1029);
    // The same human as Blender's COLLADA.
    await dropFiles(page, [{ name: 'human-zombie.dae', bytes: readData('dae/human-zombie.dae').bytes }]);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'human-zombie.dae');
    assert.equal(await page.evaluate(() => window.rigkit.current.joints), 42);

    const cube = 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n'
      + 'f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n';
    await dropFiles(page, [{ name: 'cube.obj', bytes: Buffer.from(cube) }]);
    // A mesh without a skeleton is rigged as soon as it is shown.
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'cube-rigged.glb',
      null, { timeout: 60000 });
    const current = await page.evaluate(() => window.rigkit.current);
    assert.equal(current.vertices, 8);
    assert.equal(current.triangles, 12);
    assert.ok(current.joints >= 1, `cube got ${current.joints} joints`);
    assert.deepEqual(errors, []);
  });

  test('a bad file shows an error banner and keeps the current character', async () => {
    const { page } = app;
    const shown = await page.evaluate(() => window.rigkit.current.name);
    const cases = [
      { name: 'truncated.glb', bytes: readData('eval/Fox.glb').bytes.subarray(0, 3000), expect: /truncated|past the end/ },
      { name: 'notes.txt', bytes: Buffer.from('hello'), expect: /not a file rigkit can read/ },
      { name: 'empty.glb', bytes: Buffer.alloc(0), expect: /is empty/ },
      { name: 'broken.gltf', bytes: Buffer.from('{"asset": '), expect: /bad JSON/ },
      { name: 'alone.gltf', bytes: Buffer.from(JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri: 'alone.bin', byteLength: 4 }] })), expect: /'alone.bin', which was not given/ },
      { name: 'broken.obj', bytes: Buffer.from('v 0 0 0\nf 1 2 3\n'), expect: /line 2/ },
      { name: 'cut.fbx', bytes: readData('fbx/human-zombie.fbx').bytes.subarray(0, 5000), expect: /not a valid FBX file/ },
      { name: 'draco.glb', bytes: fs.readFileSync(path.join(data, 'robustness/draco/Astronaut_FinnTheFrog-transformed.glb')), expect: /Draco/ },
    ];
    for (const bad of cases) {
      await dropFiles(page, [bad]);
      await page.waitForSelector('#error-banner:not([hidden])');
      const text = await page.textContent('#error-text');
      assert.match(text, bad.expect, `${bad.name}: ${text}`);
      assert.ok(text.includes(bad.name), `the error names the file: ${text}`);
      assert.equal(await page.evaluate(() => window.rigkit.current.name), shown);
      await page.click('#error-close');
    }
    // The page still works after all of that.
    const info = await page.evaluate(async (bytes) => (await window.rigkit.load(new Uint8Array(bytes), 'again.glb')).name,
      [...readData('eval/CesiumMan.glb').bytes]);
    assert.equal(info, 'again.glb');
    assert.deepEqual(app.errors.filter((e) => !e.startsWith('console:')), []);
  });

  test('rigging runs off the main thread with named stages and shows the new skeleton', async () => {
    const { page, errors } = app;
    // While the worker fits the skeleton of a bulky robot (about a second), the page answers:
    // a rig on the main thread would only let it look again once everything was done.
    const robot = [...readData('eval/RobotExpressive.glb').bytes];
    const job = page.evaluate((b) => window.rigkit.rig(new Uint8Array(b), 'robot.glb').then((r) => r.jointCount), robot);
    await page.waitForFunction(() => /skeleton|skin/.test(document.getElementById('progress-stage').textContent),
      null, { timeout: 60000, polling: 'raf' });
    const during = await page.evaluate(() => ({
      visible: !document.getElementById('progress').hidden,
      stage: document.getElementById('progress-stage').textContent,
    }));
    assert.ok(during.visible && /skeleton|skin/.test(during.stage), JSON.stringify(during));
    assert.ok((await job) >= 5);

    const bytes = [...readData('eval/mannequiny.glb').bytes];
    const { rig, stages } = await page.evaluate(async (b) => {
      const seen = [];
      const stage = document.getElementById('progress-stage');
      const watch = new MutationObserver(() => seen.push(document.getElementById('progress').dataset.stage));
      watch.observe(stage, { childList: true, characterData: true, subtree: true });
      const result = await window.rigkit.rig(new Uint8Array(b), 'mannequiny.glb', { template: 'humanoid' });
      watch.disconnect();
      return { rig: { ...result, joints: [...result.joints] }, stages: seen };
    }, bytes);
    assert.equal(rig.jointCount, 27);
    assert.ok(rig.names.includes('mixamorig:Hips') && rig.names.includes('mixamorig:LeftForeArm'), rig.names.join());
    assert.equal(rig.joints.length, 3 * 27);
    assert.equal(rig.name, 'mannequiny-rigged.glb');
    for (const stage of ['voxelise', 'skeleton', 'skin']) {
      assert.ok(stages.some((s) => s.includes(stage)), `stage ${stage} not shown: ${stages}`);
    }
    assert.equal(await page.isHidden('#progress'), true);
    assert.match(await page.textContent('#status-rig'), /^rigged in \d+\.\d s$/);
    assert.match(await page.getAttribute('#status-rig', 'title'), /skeleton \d+ ms, skin \d+ ms/);
    const pixels = await viewportPixels(page);
    await page.screenshot({ path: path.join(artifacts, 'mannequin-rigged.png') });
    assert.ok(pixels.skeleton > 50, `new skeleton not visible (${pixels.skeleton})`);
    assert.deepEqual(errors, []);
  });

  test('joint weights show as a heatmap with a legend', async () => {
    const { page, errors } = app;
    const warmth = () => page.evaluate(() => {
      const canvas = document.getElementById('viewport');
      const off = document.createElement('canvas');
      off.width = canvas.width;
      off.height = canvas.height;
      const ctx = off.getContext('2d');
      ctx.drawImage(canvas, 0, 0);
      const { data } = ctx.getImageData(0, 0, off.width, off.height);
      let red = 0;
      let blue = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
        if (r > 150 && g < 90 && b < 80) red++;
        if (b > 90 && b > r + 50 && b > g) blue++;
      }
      return { red, blue };
    });
    await viewportPixels(page);
    const before = await warmth();
    await page.evaluate(() => window.rigkit.showWeights('mixamorig:LeftForeArm'));
    await viewportPixels(page);
    const heat = await warmth();
    await page.screenshot({ path: path.join(artifacts, 'mannequin-heatmap.png') });
    assert.ok(heat.red > before.red + 100, `no weight-1 (red) pixels: ${JSON.stringify({ before, heat })}`);
    assert.ok(heat.blue > before.blue + 1000, `no weight-0 (blue) pixels: ${JSON.stringify({ before, heat })}`);
    assert.equal(await page.isHidden('#legend'), false);
    await page.evaluate(() => window.rigkit.showWeights(-1));
    assert.equal(await page.isHidden('#legend'), true);
    assert.deepEqual(errors, []);
  });

  test('auto recognises the body plan and fits its library template', async () => {
    const { page, errors } = app;
    // The default, auto: the Fox is recognised as a quadruped and gets the library's fox
    // template, names and all, and the page says so.
    const fox = [...readData('eval/Fox.glb').bytes];
    const auto = await page.evaluate(async (b) => {
      const result = await window.rigkit.rig(new Uint8Array(b), 'Fox.glb', { template: 'auto', method: 'geometric' });
      return { recognised: result.recognised, names: result.names };
    }, fox);
    assert.equal(auto.recognised.plan, 'quadruped', JSON.stringify(auto.recognised));
    assert.equal(auto.recognised.template, 'rig-fox');
    assert.ok(auto.names.includes('Tail_End'), auto.names.join());
    assert.match(await page.textContent('#rig-summary'), /^Recognised a quadruped and fitted the fox skeleton: \d+ joints/);
    assert.match(await page.getAttribute('#status-rig', 'title'), /^recognised quadruped 0\.\d\d; auto, geometric[,:]/);
    assert.deepEqual(errors, []);
  });

  test('the neural method rigs in the browser, on WebGPU when the worker gets an adapter', async () => {
    const { page, errors } = app;
    const rig = await rigNeural(page, 'eval/mannequiny.glb', 'mannequiny.glb');
    assert.ok(rig.jointCount >= 5, `${rig.jointCount} joints`);
    assert.equal(rig.current.method, 'neural');
    assert.ok(['webgpu', 'cpu'].includes(rig.current.device), rig.current.device);
    assert.match(await page.getAttribute('#status-rig', 'title'), /neural, networks on (WebGPU|CPU)/);
    const timings = { device: rig.current.device, ...rig.current.timings };
    fs.writeFileSync(path.join(artifacts, 'neural-rig-webgpu.json'), JSON.stringify(timings, null, 2));
    console.log(`neural rig of the mannequin in the page: ${JSON.stringify(timings)}`);
    const pixels = await viewportPixels(page);
    assert.ok(pixels.skeleton > 50, `neural skeleton not visible (${pixels.skeleton})`);
    assert.deepEqual(errors, []);
  });

  test('the downloaded GLB passes the glTF validator', async () => {
    const { page } = app;
    const bytes = await page.evaluate(() => [...window.rigkit.exportGlb()]);
    const report = await validator.validateBytes(new Uint8Array(bytes));
    assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 5)));
    assert.equal(report.info.animationCount ?? 0, 0);
  });

  test('the FBX download reloads with the same skeleton', async () => {
    const { page } = app;
    const before = await page.evaluate(() => ({ joints: window.rigkit.current.joints, name: window.rigkit.current.name }));
    const result = await page.evaluate(async () => {
      const fbx = window.rigkit.exportAs('fbx');
      const info = await window.rigkit.load(fbx, 'download.fbx');
      return { head: String.fromCharCode(...fbx.slice(0, 18)), joints: info.joints };
    });
    assert.equal(result.head, 'Kaydara FBX Binary');
    assert.equal(result.joints, before.joints);
    const refused = await page.evaluate(() => { try { window.rigkit.exportAs('obj'); return 'exported'; } catch (e) { return e.message; } });
    assert.match(refused, /formats are glb, fbx and vrm/);
  });

  test('a rig can be cancelled and the character shown stays', async () => {
    const { page } = app;
    const shown = await page.evaluate(() => window.rigkit.current.name);
    const bytes = [...readData('eval/Fox.glb').bytes];
    const outcome = await page.evaluate(async (b) => {
      const job = window.rigkit.rig(new Uint8Array(b), 'fox.glb').then(() => 'finished', (e) => e.message);
      document.getElementById('progress-cancel').click();
      return job;
    }, bytes);
    assert.match(outcome, /cancelled/);
    assert.equal(await page.evaluate(() => window.rigkit.current.name), shown);
    assert.equal(await page.isHidden('#progress'), true);
    await page.click('#error-close');
    // The next rig starts a fresh worker and works.
    const again = await page.evaluate(async (b) => (await window.rigkit.rig(new Uint8Array(b), 'fox.glb')).jointCount, bytes);
    assert.ok(again >= 5);
  });

  test('a generated creature of every morphology opens with its skeleton drawn', async () => {
    const { page, errors } = app;
    const dir = path.join(artifacts, 'generated');
    fs.rmSync(dir, { recursive: true, force: true });
    for (const m of ['biped', 'quadruped', 'hexapod', 'octopod', 'bird', 'fish', 'snake', 'tentacled',
      'multiheaded', 'robot']) {
      execFileSync(bin, ['lab', 'dataset', 'export', dir, '--morphology', m, '--n', '1', '--seed', '1']);
    }
    for (const name of fs.readdirSync(dir).sort()) {
      await dropFiles(page, [{ name, bytes: fs.readFileSync(path.join(dir, name)) }]);
      await page.waitForFunction((n) => window.rigkit.current && window.rigkit.current.name === n, name);
      const current = await page.evaluate(() => window.rigkit.current);
      assert.ok(current.joints >= 8 && current.vertices > 500, `${name}: ${JSON.stringify(current)}`);
      const pixels = await viewportPixels(page);
      assert.ok(pixels.skeleton > 50, `${name}: skeleton not visible (${pixels.skeleton} pixels)`);
    }
    assert.deepEqual(errors, []);
  });

  test('a generated walk and a retargeted capture play on the character', async () => {
    const { page, errors } = app;
    const dir = path.join(artifacts, 'generated');
    const name = fs.readdirSync(dir).find((f) => f.startsWith('quadruped'));
    await dropFiles(page, [{ name, bytes: fs.readFileSync(path.join(dir, name)) }]);
    await page.waitForFunction((n) => window.rigkit.current && window.rigkit.current.name === n, name);
    const motions = await page.evaluate(() => window.rigkit.motions().map((m) => m.name));
    for (const m of ['idle', 'look', 'walk', 'wave']) assert.ok(motions.includes(m), `${m} missing: ${motions}`);
    const travel = async () => page.evaluate(() => {
      window.rigkit.pause();
      window.rigkit.seek(0.1);
      const a = window.rigkit.posedPositions();
      window.rigkit.seek(0.45);
      const b = window.rigkit.posedPositions();
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
      return { worst, count: a.length };
    });
    const walk = await page.evaluate(() => window.rigkit.animate('walk'));
    assert.ok(walk.duration > 0.5, JSON.stringify(walk));
    const before = await viewportPixels(page);
    const moved = await travel();
    const after = await viewportPixels(page);
    assert.ok(moved.count > 1000 && moved.worst > 0.01, `walk: ${JSON.stringify(moved)}`);
    assert.notEqual(before.hash, after.hash, 'the viewport did not change while walking');
    await page.screenshot({ path: path.join(artifacts, 'quadruped-walk.png') });
    // The motion is part of the download.
    const glb = await page.evaluate(() => Array.from(window.rigkit.exportGlb()));
    const report = await validator.validateBytes(new Uint8Array(glb));
    assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 3)));
    assert.equal(report.info.animationCount, 1);
    // A BVH dropped on a humanoid plays on it, retargeted.
    await page.evaluate(() => window.rigkit.restPose());
    await page.evaluate(async () => {
      const bytes = new Uint8Array(await (await fetch('web/samples/human-zombie.glb')).arrayBuffer());
      await window.rigkit.load(bytes, 'human-zombie.glb');
    });
    await dropFiles(page, [readData('motion/cmu/01_01.bvh')]);
    await page.waitForFunction(() => window.rigkit.playback.index !== null);
    const clip = await travel();
    assert.ok(clip.worst > 0.01, `capture: ${JSON.stringify(clip)}`);
    assert.ok((await page.evaluate(() => window.rigkit.motions())).some((m) => m.name === '01_01'));
    await page.screenshot({ path: path.join(artifacts, 'zombie-cmu.png') });
    await page.evaluate(() => window.rigkit.restPose());
    assert.deepEqual(errors, []);
  });

  test('a morph target slider shapes the face shown and the download', async () => {
    const { page, errors } = app;
    await dropFiles(page, [readData('eval/RobotExpressive.glb')]);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'RobotExpressive.glb');
    const targets = await page.evaluate(() => window.rigkit.morphTargets().map((t) => t.name));
    assert.deepEqual(targets, ['Angry', 'Surprised', 'Sad']);
    await page.evaluate(() => {
      for (let i = 0; i < 3; i++) window.rigkit.setMorphWeight(i, 0);
      window.rigkit.showStep('check');
      document.getElementById('morph-targets').open = true;
    });
    await keepViewport(page, 'neutral');
    const slider = page.locator('#morph-list input[data-target="1"]');
    assert.ok(await slider.isVisible(), 'no slider for Surprised');
    await slider.fill('1');
    await keepViewport(page, 'surprised');
    assert.ok(await viewportDifference(page, 'neutral', 'surprised', 8) > 0, 'the face did not change');
    assert.equal((await page.evaluate(() => window.rigkit.morphTargets()))[1].weight, 1);
    const glb = Buffer.from(await page.evaluate(() => Array.from(window.rigkit.exportGlb())));
    const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));
    const weights = json.meshes.map((m) => m.weights).find((w) => w && w.length === 3);
    assert.deepEqual(weights, [0, 1, 0]);
    await page.evaluate(() => window.rigkit.setMorphWeight(1, 0));
    assert.deepEqual(errors, []);
  });

  test('correctives shape a bent knee live, on the GPU as on the CPU, and go into the download', async () => {
    const { page, errors } = app;
    await dropFiles(page, [readData('eval/mannequiny.glb')]);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'mannequiny.glb');
    // The left knee bent 90° by a drag in pose mode.
    const off = await page.evaluate(() => {
      const knee = window.rigkit.jointNames().indexOf('calf.l');
      window.rigkit.rotateJoint(knee, 0, 157);
      return window.rigkit.posedPositions();
    });
    await keepViewport(page, 'off');
    const fitted = await page.evaluate(() => window.rigkit.setCorrectives(true));
    assert.ok(fitted.shapes > 0 && fitted.shapes <= 32, JSON.stringify(fitted));
    assert.ok(await page.evaluate(() => document.getElementById('correctives').checked), 'the chip shows them on');
    const on = await page.evaluate(() => window.rigkit.posedPositions());
    let [worst, lo, hi] = [0, Infinity, -Infinity];
    for (let i = 0; i < on.length; i++) {
      worst = Math.max(worst, Math.abs(on[i] - off[i]));
      [lo, hi] = [Math.min(lo, off[i]), Math.max(hi, off[i])];
    }
    assert.ok(worst > 2e-3 * (hi - lo), `correctives moved the surface by ${worst} of ${hi - lo}`);
    // The difference view paints where they move the body, and the knee most.
    await keepViewport(page, 'on');
    await page.evaluate(() => window.rigkit.showCorrectiveDifference(true));
    await keepViewport(page, 'difference');
    assert.ok(await viewportDifference(page, 'on', 'difference') > 0.02, 'the difference view shows nothing');
    assert.ok(await page.evaluate(() => !document.getElementById('difference-legend').hidden));
    await page.screenshot({ path: path.join(artifacts, 'mannequin-knee-difference.png') });
    await page.evaluate(() => window.rigkit.showCorrectiveDifference(false));
    await keepViewport(page, 'on-again');
    assert.equal(await viewportDifference(page, 'on', 'on-again'), 0, 'the materials came back');
    // The shader adds the same shapes as the CPU reference: the picture matches its bake.
    await keepViewport(page, 'gpu');
    await page.screenshot({ path: path.join(artifacts, 'mannequin-knee-corrected.png') });
    await page.evaluate(() => window.rigkit.bakePose());
    await keepViewport(page, 'cpu');
    const gpuVsCpu = await viewportDifference(page, 'gpu', 'cpu');
    const onVsOff = await viewportDifference(page, 'off', 'cpu');
    assert.ok(gpuVsCpu <= 0.002 && gpuVsCpu < onVsOff, JSON.stringify({ gpuVsCpu, onVsOff }));
    // The download carries them as named morph targets, and passes the validator.
    const glb = await page.evaluate(() => Array.from(window.rigkit.exportGlb()));
    const report = await validator.validateBytes(new Uint8Array(glb));
    assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 3)));
    const bytes = Buffer.from(glb);
    const json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
    const names = json.meshes.flatMap((m) => (m.extras && m.extras.targetNames) || []);
    assert.equal(names.filter((n) => n.startsWith('corrective_')).length, fitted.shapes, JSON.stringify(names));
    // Close-ups of the left elbow bent 130° (forward: about -Y), seen from above with the
    // skeleton inside the body, without correctives, with them, and their difference
    // (docs/images/correctives-*.png are these).
    const elbow = await page.evaluate(() => {
      const joint = window.rigkit.jointNames().indexOf('lowerarm.l');
      window.rigkit.turnJoint(joint, [0, -1, 0], 130);
      document.getElementById('xray').click();
      return joint;
    });
    const box = await page.locator('#viewport').boundingBox();
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(box.x + 12, box.y + 60);
    await page.mouse.down();
    await page.mouse.move(box.x + 12, box.y + 60 + 200, { steps: 5 });
    await page.mouse.up();
    for (let pass = 0; pass < 3; pass++) {
      const at = await page.evaluate((j) => window.rigkit.jointScreenPositions().slice(2 * j, 2 * j + 2), elbow);
      await page.mouse.move(centre.x, centre.y);
      await page.mouse.down({ button: 'right' });
      await page.mouse.move(centre.x + (box.width / 2 - at[0]), centre.y + (box.height / 2 - at[1]), { steps: 4 });
      await page.mouse.up({ button: 'right' });
      if (pass < 2) for (let k = 0; k < 4; k++) await page.mouse.wheel(0, -100);
    }
    // The elbow a little right of the middle, the upper arm and the shoulder to its left.
    const at = await page.evaluate((j) => window.rigkit.jointScreenPositions().slice(2 * j, 2 * j + 2), elbow);
    const side = Math.min(320, box.width, box.height);
    const clip = {
      x: Math.max(box.x, box.x + at[0] - 0.65 * side),
      y: Math.max(box.y, box.y + at[1] - 0.5 * side),
      width: side,
      height: side,
    };
    const closeUp = async (name) => {
      await page.mouse.move(box.x + 2, box.y + box.height - 2);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: path.join(artifacts, `correctives-${name}.png`), clip });
    };
    await page.evaluate(() => window.rigkit.setCorrectives(false));
    await closeUp('off');
    await page.evaluate(() => window.rigkit.setCorrectives(true));
    await closeUp('on');
    await page.evaluate(() => window.rigkit.showCorrectiveDifference(true));
    await closeUp('difference');
    await page.evaluate((joint) => {
      window.rigkit.showCorrectiveDifference(false);
      window.rigkit.turnJoint(joint, [0, -1, 0], -130);
      document.getElementById('xray').click();
    }, elbow);
    // Off again: the surface as linear blending leaves it, and downloads without them.
    const back = await page.evaluate(() => {
      window.rigkit.setCorrectives(false);
      return window.rigkit.posedPositions();
    });
    const apart = back.reduce((m, v, i) => Math.max(m, Math.abs(v - off[i])), 0);
    assert.ok(back.length === off.length && apart < 1e-4 * (hi - lo), `off again: ${apart}`);
    await page.evaluate(() => window.rigkit.restPose());
    assert.deepEqual(errors, []);
  });

  test('a 61,500-vertex character plays a motion, skinned on the GPU as on the CPU (frame times recorded)', async () => {
    const { page, errors } = app;
    // Drops `name`, plays a generated motion on it, and times posing alone (kinematics,
    // skinning matrices, upload), then whole frames while playing.
    const playTiming = async (name, bytes) => {
      await dropFiles(page, [{ name, bytes }]);
      await page.waitForFunction((n) => window.rigkit.current && window.rigkit.current.name === n, name);
      const motion = await page.evaluate(() => {
        const names = window.rigkit.motions().map((m) => m.name);
        return window.rigkit.animate(names.includes('walk') ? 'walk' : 'wave');
      });
      return page.evaluate(async (motion) => {
        window.rigkit.pause();
        const seeks = [];
        let first = null;
        let last = null;
        for (let i = 0; i < 15; i++) {
          const t0 = performance.now();
          window.rigkit.seek((motion.duration * i) / 15);
          seeks.push(performance.now() - t0);
          const p = window.rigkit.posedPositions();
          if (i === 0) first = p.slice(0, 3000);
          last = p.slice(0, 3000);
        }
        let moved = 0;
        for (let i = 0; i < first.length; i++) moved = Math.max(moved, Math.abs(first[i] - last[i]));
        window.rigkit.play(motion.index);
        const frames = await new Promise((resolve) => {
          const out = [];
          let prev = performance.now();
          const step = (now) => {
            out.push(now - prev);
            prev = now;
            if (out.length < 30) requestAnimationFrame(step); else resolve(out);
          };
          requestAnimationFrame(step);
        });
        window.rigkit.pause();
        const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        return {
          vertices: window.rigkit.current.vertices,
          poseMs: median(seeks),
          frameMs: median(frames.slice(1)),
          moved,
          clip: motion,
        };
      }, motion);
    };
    const frog = path.join(data, 'eval/quaternius-easy_enemies_pack/Frog.glb');
    const small = await playTiming('Frog.glb', fs.readFileSync(frog));
    // The same frog with every triangle split in four twice (weights blended).
    const dense = path.join(artifacts, 'frog-dense.glb');
    execFileSync(bin, ['convert', frog, dense, '--subdivide', '2']);
    const timing = await playTiming('frog-dense.glb', fs.readFileSync(dense));
    assert.ok(timing.vertices >= 50000, JSON.stringify(timing));
    assert.ok(timing.moved > 1e-3, `the skinned vertices did not move: ${JSON.stringify(timing)}`);
    timing.small = small;
    // The viewport's shader skins as the CPU reference does: the pose drawn by the GPU and the
    // same pose skinned on the CPU look the same, and both differ from the rest pose.
    await page.evaluate(() => window.rigkit.restPose());
    await keepViewport(page, 'rest');
    await page.evaluate((clip) => {
      window.rigkit.play(clip.index);
      window.rigkit.pause();
      window.rigkit.seek(clip.duration * 0.4);
    }, timing.clip);
    await keepViewport(page, 'gpu');
    await page.screenshot({ path: path.join(artifacts, 'frog-dense-gpu.png') });
    await page.evaluate(() => window.rigkit.bakePose());
    await keepViewport(page, 'cpu');
    timing.gpuVsCpu = await viewportDifference(page, 'gpu', 'cpu');
    timing.restVsPose = await viewportDifference(page, 'rest', 'cpu');
    // The next pose is the GPU's again: the same as that pose shown fresh.
    await page.evaluate((clip) => window.rigkit.seek(clip.duration * 0.7), timing.clip);
    await keepViewport(page, 'after-bake');
    await page.evaluate((clip) => {
      window.rigkit.restPose();
      window.rigkit.play(clip.index);
      window.rigkit.pause();
      window.rigkit.seek(clip.duration * 0.7);
    }, timing.clip);
    await keepViewport(page, 'fresh');
    assert.ok(await viewportDifference(page, 'fresh', 'cpu') > 0.001, 'the two poses look alike');
    assert.equal(await viewportDifference(page, 'after-bake', 'fresh'), 0, 'the bake stuck');
    assert.ok(timing.restVsPose > 0.005, `the pose hardly shows: ${JSON.stringify(timing)}`);
    assert.ok(timing.gpuVsCpu < 0.1 * timing.restVsPose,
      `the GPU skinning differs from the CPU's: ${JSON.stringify(timing)}`);
    fs.writeFileSync(path.join(artifacts, 'dense-playback.json'), JSON.stringify(timing, null, 2));
    console.log(`dense playback in the page: ${JSON.stringify(timing)}`);
    await page.evaluate(() => window.rigkit.restPose());
    // At rest there is nothing to bake: a clear error, and nothing changes.
    const refused = await page.evaluate(() => {
      try {
        window.rigkit.bakePose();
        return null;
      } catch (e) {
        return e.message;
      }
    });
    assert.match(String(refused), /nothing is posed/);
    assert.deepEqual(errors, []);
  });

  test('no request leaves the page origin', () => {
    assertSameOrigin(app.requests, server.url);
    assert.ok(app.requests.some((u) => u.endsWith('.wasm')), 'the wasm module was requested from the origin');
  });
});

describe('without WebGPU (CPU fallback)', () => {
  let browser;
  let app;
  before(async () => {
    browser = await launch({ webgpu: false });
    app = await openApp(browser.context, server.url);
  });
  after(async () => browser && browser.close());

  test('falls back to the CPU backend and still shows and computes', async () => {
    const { page, errors } = app;
    assert.equal(await page.evaluate(() => window.rigkit.backend), 'CPU');
    assert.equal(await page.textContent('#status-backend'), 'CPU');
    const check = await page.evaluate(() => window.rigkit.checkBackends());
    assert.equal(check.gpuVsCpu, null);
    assert.ok(check.cpuVsReference < 1e-5, `CPU vs reference ${check.cpuVsReference}`);
    const pixels = await viewportPixels(page);
    await page.screenshot({ path: path.join(artifacts, 'sample-cpu.png') });
    assert.ok(pixels.colours > 50 && pixels.skeleton > 100, 'sample not rendered with its skeleton');
    assert.deepEqual(errors, []);
    assertSameOrigin(app.requests, server.url);
  });

  test('the neural method rigs on the CPU backend too', async () => {
    const { page, errors } = app;
    const rig = await rigNeural(page, 'eval/Fox.glb', 'fox.glb');
    assert.ok(rig.jointCount >= 5, `${rig.jointCount} joints`);
    assert.equal(rig.current.device, 'cpu');
    fs.writeFileSync(path.join(artifacts, 'neural-rig-cpu.json'),
      JSON.stringify({ device: 'cpu', ...rig.current.timings }, null, 2));
    assert.deepEqual(errors, []);
  });

  // The default rig of `file` three times in the page; each run's counts, device, recognised
  // template and stage timings, and the median total, written to target/e2e/`artifact`.
  async function benchmarkRig(page, file, artifact) {
    const bytes = [...readData(file).bytes];
    const runs = [];
    for (let i = 0; i < 3; i++) {
      runs.push(await page.evaluate(async ([b, name]) => {
        const rig = await window.rigkit.rig(new Uint8Array(b), name);
        return {
          jointCount: rig.jointCount, vertices: rig.vertices, device: rig.device,
          template: rig.recognised && rig.recognised.template, ...rig.timings,
        };
      }, [bytes, path.basename(file).toLowerCase()]));
    }
    const totals = runs.map((r) => r.totalMs).sort((a, b) => a - b);
    const result = { character: path.basename(file), vertices: runs[0].vertices, medianMs: totals[1], runs };
    fs.writeFileSync(path.join(artifacts, artifact), JSON.stringify(result, null, 2));
    return result;
  }

  // A benchmark, not a timed assertion: the default rig (best: automatic skeleton refined by
  // the skeleton head, geometric weights) of a 9,840-vertex character on the CPU backend,
  // three times; the median goes to target/e2e/rig-default-cpu.json for the README.
  test('the default rig of a 10k-vertex character on the CPU backend (benchmark)', async () => {
    const { page, errors } = app;
    const { runs, medianMs } = await benchmarkRig(
      page, 'eval/quaternius-easy_enemies_pack/Frog.glb', 'rig-default-cpu.json');
    for (const run of runs) {
      assert.ok(run.jointCount >= 5, `${run.jointCount} joints`);
      assert.equal(run.vertices, 9840);
      assert.equal(run.device, 'cpu', 'the skeleton head runs on the CPU backend');
    }
    console.log(`default rig of the Frog on the CPU backend: median ${medianMs.toFixed(0)} ms`);
    assert.deepEqual(errors, []);
  });

  // The page has no threads: a template's bodies are ranked and bent on helper workers, one
  // per core. Spread or not, the rig is the same, joint for joint.
  test('a humanoid carried on helper workers gets the skeleton the rig worker alone gives', async () => {
    const { page, errors } = app;
    const bytes = [...readData('eval/mannequiny.glb').bytes];
    const rig = (helpers) => page.evaluate(async ([b, spread]) => {
      const rig = await window.rigkit.rig(new Uint8Array(b), 'mannequiny.glb', { helpers: spread });
      return { names: rig.names, joints: [...rig.joints], template: rig.recognised && rig.recognised.template };
    }, [bytes, helpers]);
    const alone = await rig(false);
    const spread = await rig(true);
    assert.equal(alone.template, 'rig-human');
    assert.equal(alone.names.length, 66);
    assert.deepEqual(spread, alone);
    assert.deepEqual(errors, []);
  });

  // A benchmark, not a timed assertion: the default rig of a humanoid (recognised, then the
  // human template carried on its fifteen bodies) on the CPU backend, three times (the first
  // reads the template library); the median goes to target/e2e/rig-humanoid-cpu.json.
  test('the default rig of a 12k-vertex humanoid on the CPU backend (benchmark)', async () => {
    const { page, errors } = app;
    const { runs, medianMs } = await benchmarkRig(page, 'eval/mannequiny.glb', 'rig-humanoid-cpu.json');
    for (const run of runs) {
      assert.equal(run.template, 'rig-human', JSON.stringify(run));
      assert.equal(run.jointCount, 66);
    }
    console.log(`default rig of the mannequin on the CPU backend: median ${medianMs.toFixed(0)} ms`);
    assert.deepEqual(errors, []);
  });
});
