// End-to-end tests of editing, pose mode, offline use and the embedding API: headless
// Chromium on the built page (dist/), WebGPU on SwiftShader.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import validator from 'gltf-validator';

import { data, evalCharacters, readData, readSweep } from './data.mjs';
import { serve } from './server.mjs';
import { dropFiles, launch, openApp, toBase64, viewportPixels } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const dist = process.env.RIGKIT_DIST || path.join(repo, 'dist');
const artifacts = path.join(repo, 'target', 'e2e');
fs.mkdirSync(artifacts, { recursive: true });

let server;
before(async () => { server = await serve(dist); });
after(async () => server && server.close());

describe('editing the rig', () => {
  let browser;
  let app;
  before(async () => {
    browser = await launch({ webgpu: true });
    app = await openApp(browser.context, server.url);
  });
  after(async () => browser && browser.close());

  test('dragging a joint with the pointer moves it and changes the weights; undo restores', async () => {
    const { page, errors } = app;
    await dropFiles(page, [readData('eval/mannequiny.glb')]);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'mannequiny.glb');
    await page.evaluate(() => window.rigkit.setMode('edit'));
    const names = await page.evaluate(() => window.rigkit.current && window.rigkit.jointParents().length);
    assert.ok(names > 20);
    const elbow = await page.evaluate(() => [...document.getElementById('weights-joint').options]
      .findIndex((o) => o.textContent === 'lowerarm.l') - 1);
    assert.ok(elbow >= 0);
    // One edit in place first, so that before and after are both rigkit's own skins.
    const rest = await page.evaluate(() => Array.from(window.rigkit.jointPositions()));
    await page.evaluate(([j, p]) => window.rigkit.moveJoint(j, p[3 * j], p[3 * j + 1], p[3 * j + 2]), [elbow, rest]);
    const before = await page.evaluate((j) => Array.from(window.rigkit.jointWeights(j)), elbow);
    const screen = await page.evaluate(() => Array.from(window.rigkit.jointScreenPositions()));
    const box = await page.locator('#viewport').boundingBox();
    const [x, y] = [box.x + screen[2 * elbow], box.y + screen[2 * elbow + 1]];
    // Hovering names the joint.
    await page.mouse.move(x, y);
    assert.equal(await page.textContent('#joint-tip'), 'lowerarm.l');
    await page.mouse.down();
    await page.mouse.move(x + 10, y + 25, { steps: 5 });
    await page.mouse.up();
    await page.waitForFunction(() => /re-skinned in \d+ ms/.test(document.getElementById('status-edit').textContent));
    const after = await page.evaluate((j) => Array.from(window.rigkit.jointWeights(j)), elbow);
    const changed = before.filter((w, i) => Math.abs(w - after[i]) > 0.05).length;
    assert.ok(changed > 50, `only ${changed} vertices changed weight`);
    const moved = await page.evaluate(() => Array.from(window.rigkit.jointScreenPositions()));
    assert.ok(Math.hypot(moved[2 * elbow] - screen[2 * elbow] - 10, moved[2 * elbow + 1] - screen[2 * elbow + 1] - 25) < 3,
      'the joint did not follow the pointer');
    // The painted heatmap is the selected joint's.
    assert.equal(await page.inputValue('#weights-joint'), String(elbow));
    await page.screenshot({ path: path.join(artifacts, 'edit-drag.png') });
    await page.keyboard.press('Control+z');
    const undone = await page.evaluate((j) => Array.from(window.rigkit.jointWeights(j)), elbow);
    assert.deepEqual(undone, before);
    await page.keyboard.press('Control+Shift+z');
    assert.deepEqual(await page.evaluate((j) => Array.from(window.rigkit.jointWeights(j)), elbow), after);
    assert.deepEqual(errors, []);
  });

  test('joints can be added, renamed, re-parented and deleted, and the export stays valid', async () => {
    const { page, errors } = app;
    const count = () => page.evaluate(() => window.rigkit.jointParents().length);
    const n = await count();
    const hand = await page.evaluate(() => [...document.getElementById('weights-joint').options]
      .findIndex((o) => o.textContent === 'hand.l') - 1);
    const added = await page.evaluate((h) => window.rigkit.addJoint(h, 'tip.l'), hand);
    assert.equal(await count(), n + 1);
    await page.evaluate((j) => window.rigkit.renameJoint(j, 'prop.l'), added);
    const names = await page.evaluate(() => [...document.getElementById('weights-joint').options].map((o) => o.textContent));
    assert.ok(names.includes('prop.l'));
    const moved = await page.evaluate((j) => window.rigkit.reparentJoint(j, 0), added);
    assert.equal((await page.evaluate(() => window.rigkit.jointParents()))[moved], 0);
    await page.evaluate((j) => window.rigkit.deleteJoint(j), moved);
    assert.equal(await count(), n);
    // A refused edit names the problem and changes nothing.
    await assert.rejects(page.evaluate(() => window.rigkit.deleteJoint(0)), /root/);
    assert.equal(await page.isHidden('#error-banner'), false);
    assert.equal(await count(), n);
    await page.click('#error-close');
    const glb = await page.evaluate(() => Array.from(window.rigkit.exportGlb()));
    const report = await validator.validateBytes(new Uint8Array(glb));
    assert.equal(report.issues.numErrors, 0);
    assert.deepEqual(errors.filter((e) => !/root/.test(e)), []);
  });

  test('pose mode turns a joint with live skinning; reset brings the rest pose back', async () => {
    const { page } = app;
    await page.evaluate(() => window.rigkit.setMode('pose'));
    const before = await viewportPixels(page);
    const elbow = await page.evaluate(() => [...document.getElementById('weights-joint').options]
      .findIndex((o) => o.textContent === 'upperarm.l') - 1);
    const screen = await page.evaluate(() => Array.from(window.rigkit.jointScreenPositions()));
    const box = await page.locator('#viewport').boundingBox();
    await page.mouse.move(box.x + screen[2 * elbow], box.y + screen[2 * elbow + 1]);
    await page.mouse.down();
    await page.mouse.move(box.x + screen[2 * elbow] + 60, box.y + screen[2 * elbow + 1], { steps: 6 });
    await page.mouse.up();
    assert.equal(await page.evaluate(() => window.rigkit.gizmoJoint()), elbow, 'no rotation ring on the joint');
    const posed = await page.evaluate(() => window.rigkit.posedPositions().length);
    assert.ok(posed > 1000, 'no posed vertices');
    // Turning the joint by script: each turn poses the skeleton and uploads the skinning
    // matrices (the GPU skins); recorded, not asserted.
    const turns = await page.evaluate((joint) => {
      const ms = [];
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        window.rigkit.rotateJoint(joint, 2, 0);
        ms.push(performance.now() - t0);
      }
      return { vertices: window.rigkit.current.vertices, medianMs: ms.sort((a, b) => a - b)[5] };
    }, elbow);
    fs.writeFileSync(path.join(artifacts, 'pose-mode.json'), JSON.stringify(turns, null, 2));
    const after = await viewportPixels(page);
    assert.notEqual(before.hash, after.hash);
    // Toggling x-ray keeps the pose: the rebuilt skeleton overlay is posed again.
    for (const checked of [false, true]) await page.setChecked('#xray', checked);
    assert.equal((await viewportPixels(page)).hash, after.hash, 'x-ray toggling lost the pose');
    // The rest pose leaves pose mode's turns behind: toggling x-ray does not bring them back.
    await page.evaluate(() => window.rigkit.restPose());
    const rest = await viewportPixels(page);
    assert.notEqual(rest.hash, after.hash);
    for (const checked of [false, true]) await page.setChecked('#xray', checked);
    assert.equal((await viewportPixels(page)).hash, rest.hash, 'x-ray toggling brought the pose back');
    await page.screenshot({ path: path.join(artifacts, 'pose-mode.png') });
    await page.click('#reset-pose');
    assert.equal(await page.evaluate(() => window.rigkit.posedPositions().length), 0);
    assert.equal(await page.evaluate(() => window.rigkit.gizmoJoint()), -1);
    await page.evaluate(() => window.rigkit.setMode('view'));
  });
});

describe('embedding', () => {
  test('the embed example rigs with <rigkit-viewer> and with the Rigger API', async () => {
    const browser = await launch({ webgpu: false });
    try {
      const page = await browser.context.newPage();
      const errors = [];
      const requests = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`${server.url}web/embed-example.html`);
      await page.waitForFunction(() => window.embedReady && window.elementRig, null, { timeout: 120000 });
      const element = await page.evaluate(() => ({ joints: window.elementRig.jointCount, names: window.elementRig.names.length }));
      assert.ok(element.joints >= 20, JSON.stringify(element));
      assert.match(await page.textContent('#element-status'), /rigged: \d+ joints/);
      const fox = fs.readFileSync(path.join(data, 'eval', 'Fox.glb'));
      const rig = await page.evaluate((bytes) => window.rigWithApi(bytes, 'Fox.glb'), [...fox]);
      assert.ok(rig.jointCount >= 2 && rig.joints === 3 * rig.jointCount && rig.parents[0] === -1, JSON.stringify(rig));
      assert.equal(rig.offsets, 1728 + 1);
      // 'auto' recognised the Fox and fitted the library's fox template.
      assert.equal(rig.recognised && rig.recognised.template, 'rig-fox', JSON.stringify(rig.recognised));
      assert.ok(rig.names.includes('Tail_End'), rig.names.join());
      await page.screenshot({ path: path.join(artifacts, 'embed-example.png') });
      assert.deepEqual(requests.filter((u) => !u.startsWith(server.url)), []);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});

describe('offline', () => {
  test('after the first visit the page opens and rigs without a network', async () => {
    const browser = await launch({ webgpu: false });
    try {
      const first = await openApp(browser.context, server.url);
      await first.page.evaluate(() => navigator.serviceWorker.ready);
      await first.page.reload();
      await first.page.waitForFunction(() => window.rigkit && window.rigkit.ready && navigator.serviceWorker.controller);
      await browser.context.setOffline(true);
      const offline = await openApp(browser.context, server.url);
      await offline.page.waitForFunction(() => window.rigkit.current && window.rigkit.current.joints > 0);
      const rig = await offline.page.evaluate(async () => {
        const bytes = new Uint8Array(await (await fetch('web/samples/human-zombie.glb')).arrayBuffer());
        return window.rigkit.rig(bytes, 'zombie.glb', { template: 'auto' });
      });
      assert.ok(rig.jointCount >= 5);
      assert.deepEqual(offline.errors, []);
    } finally {
      await browser.context.setOffline(false);
      await browser.close();
    }
  });
});

describe('viewport and options', () => {
  let browser;
  let app;
  before(async () => {
    browser = await launch({ webgpu: true });
    app = await openApp(browser.context, server.url);
  });
  after(async () => browser && browser.close());

  test('every eval character opens with its skeleton drawn, and rigs anew', async () => {
    const { page, errors } = app;
    // tests/data's eval characters, or the whole eval set when RIGKIT_DATA names it.
    const files = evalCharacters();
    for (const rel of files) {
      const file = readSweep(rel);
      await dropFiles(page, [file]);
      await page.waitForFunction((n) => window.rigkit.current && window.rigkit.current.name === n, file.name);
      const shown = await viewportPixels(page);
      assert.ok(shown.skeleton > 50, `${rel}: skeleton not visible (${shown.skeleton})`);
      const rig = await page.evaluate(([base64, name]) => window.rigkit.rig(
        Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)), name), [toBase64(file.bytes), file.name]);
      assert.ok(rig.jointCount >= 2, `${rel}: ${rig.jointCount} joints`);
      const rigged = await viewportPixels(page);
      assert.ok(rigged.skeleton > 50, `${rel}: new skeleton not visible`);
    }
    assert.deepEqual(errors, []);
  });

  test('x-ray and wireframe change what is drawn', async () => {
    const { page } = app;
    const plain = await viewportPixels(page);
    await page.click('#wireframe');
    const wire = await viewportPixels(page);
    assert.notEqual(wire.hash, plain.hash, 'the wireframe changed nothing');
    await page.screenshot({ path: path.join(artifacts, 'wireframe.png') });
    await page.click('#wireframe');
    await page.click('#xray');
    const hidden = await viewportPixels(page);
    assert.ok(hidden.skeleton < plain.skeleton, `x-ray off still shows ${hidden.skeleton} of ${plain.skeleton} skeleton pixels`);
    await page.click('#xray');
  });

  test('a skeleton file as the template: a BVH skeleton adapted to the mesh', async () => {
    const { page, errors } = app;
    const bvh = readData('motion/cmu/01_01.bvh');
    const rig = await page.evaluate(async (base64) => {
      const mesh = new Uint8Array(await (await fetch('web/samples/human-zombie.glb')).arrayBuffer());
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      return window.rigkit.rig(mesh, 'zombie.glb', { skeleton: { name: '01_01.bvh', bytes } });
    }, toBase64(bvh.bytes));
    assert.ok(rig.names.includes('LeftUpLeg') && rig.names.includes('Head'), rig.names.join(','));
    assert.ok(rig.jointCount >= 31);
    assert.deepEqual(errors, []);
  });

  test('a rigged file as the template: its skeleton carried onto the mesh on its own body', async () => {
    const { page, errors } = app;
    // The eval Fox's artist skeleton, carried from the Fox onto the sample fox (another mesh).
    const rigged = readData('eval/Fox.glb');
    const rig = await page.evaluate(async (base64) => {
      const mesh = new Uint8Array(await (await fetch('web/samples/fox.glb')).arrayBuffer());
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      return window.rigkit.rig(mesh, 'fox.glb', { skeleton: { name: 'Fox.glb', bytes } });
    }, toBase64(rigged.bytes));
    assert.equal(rig.jointCount, 24);
    for (const name of ['b_Head_05', 'b_Tail03_014', 'b_LeftFoot02_018']) {
      assert.ok(rig.names.includes(name), `${name} missing from ${rig.names.join(',')}`);
    }
    assert.ok((await viewportPixels(page)).skeleton > 50, 'no skeleton drawn');
    assert.deepEqual(errors, []);
  });
});

describe('samples and downloads', () => {
  test('the bundled samples open rigged, and a download reloads in three.js', async () => {
    const browser = await launch({ webgpu: false });
    const repoServer = await serve(repo);
    try {
      const { page, errors } = await openApp(browser.context, server.url);
      // Each sample button, as the page ships it: the unrigged ones are rigged by default.
      for (const [file, least] of [['fox.glb', 15], ['snake.glb', 5], ['spider.glb', 8], ['kaiju.glb', 15], ['bird.glb', 10]]) {
        await page.click('#tab-rig');
        await page.click(`[data-sample="${file}"]`);
        await page.waitForFunction((f) => window.rigkit.current && window.rigkit.current.rigged
          && window.rigkit.current.name === f.replace('.glb', '-rigged.glb'), file, { timeout: 120000 });
        const current = await page.evaluate(() => window.rigkit.current);
        assert.ok(current.joints >= least, `${file}: ${current.joints} joints`);
        assert.ok((await viewportPixels(page)).skeleton > 50, `${file}: no skeleton drawn`);
      }
      const glb = Buffer.from(await page.evaluate(() => Array.from(window.rigkit.exportGlb())));
      const joints = await page.evaluate(() => window.rigkit.current.joints);
      const out = path.join(artifacts, 'downloaded-bird.glb');
      fs.writeFileSync(out, glb);
      const three = await browser.context.newPage();
      await three.goto(`${repoServer.url}tests/e2e/threejs.html`);
      await three.waitForFunction(() => window.ready === true);
      const found = await three.evaluate((u) => window.inspectGlb(u), `/${path.relative(repo, out).split(path.sep).join('/')}`);
      assert.equal(found.bones, joints);
      assert.ok(found.skinnedMeshes >= 1 && found.vertices > 0);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      repoServer.close();
    }
  });
});

describe('mirrored joint moves', () => {
  test('with X-mirror on, moving a joint moves its twin across the body; one undo takes both back', async () => {
    const browser = await launch({ webgpu: false });
    try {
      const { page, errors } = await openApp(browser.context, server.url);
      await dropFiles(page, [readData('eval/mannequiny.glb')]);
      await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'mannequiny.glb');
      await page.evaluate(() => window.rigkit.setMode('edit'));
      await page.setChecked('#edit-mirror', true);
      const result = await page.evaluate(() => {
        const names = window.rigkit.current.names || [...document.getElementById('weights-joint').options].slice(1).map((o) => o.textContent);
        const [l, r] = [names.indexOf('lowerarm.l'), names.indexOf('lowerarm.r')];
        const at = (k) => [...window.rigkit.jointPositions().slice(3 * k, 3 * k + 3)];
        const before = { l: at(l), r: at(r) };
        window.rigkit.moveJoint(l, before.l[0] + 0.02, before.l[1] + 0.03, before.l[2]);
        const moved = { l: at(l), r: at(r) };
        window.rigkit.undo();
        return { before, moved, undone: { l: at(l), r: at(r) } };
      });
      const { before, moved, undone } = result;
      assert.ok(Math.abs(moved.l[1] - before.l[1] - 0.03) < 1e-5, JSON.stringify(result));
      // The right forearm rose as much, and moved outward as the left did (mirrored in x).
      assert.ok(Math.abs(moved.r[1] - before.r[1] - 0.03) < 1e-5, JSON.stringify(result));
      assert.ok(Math.abs((moved.r[0] - before.r[0]) + 0.02) < 1e-5, JSON.stringify(result));
      assert.deepEqual(undone, before);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});

describe('painting weights', () => {
  let browser;
  let app;
  before(async () => {
    browser = await launch({ webgpu: false });
    app = await openApp(browser.context, server.url);
  });
  after(async () => browser && browser.close());

  test('a brush stroke on the body changes the joint heatmap and weights; undo and redo; the download holds them', async () => {
    const { page, errors } = app;
    await page.setViewportSize({ width: 1280, height: 800 });
    await dropFiles(page, [readData('eval/mannequiny.glb')]);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.name === 'mannequiny.glb');
    await page.evaluate(() => window.rigkit.setMode('paint'));
    assert.equal(await page.isVisible('#paint-tools'), true);
    // The left forearm, chosen in the page's joint list.
    const forearm = await page.evaluate(() => [...document.getElementById('weights-joint').options]
      .find((o) => o.textContent === 'lowerarm.l').value);
    await page.selectOption('#weights-joint', forearm);
    await page.evaluate((j) => window.rigkit.selectJoint(Number(j)), forearm);
    // A pixel on the upper arm, away from every joint (a click there would pick the joint).
    const start = await page.evaluate((j) => {
      const joint = Number(j);
      const screen = window.rigkit.jointScreenPositions();
      const parent = window.rigkit.jointParents()[joint];
      const at = (k) => [screen[2 * k], screen[2 * k + 1]];
      const [a, b] = [at(parent), at(joint)];
      for (const t of [0.5, 0.4, 0.6, 0.3, 0.7]) {
        const p = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
        const clear = screen.every((_, i) => i % 2 === 1 || Math.hypot(screen[i] - p[0], screen[i + 1] - p[1]) > 20);
        if (clear && window.rigkit.pickSurface(p[0], p[1])) return p;
      }
      return null;
    }, forearm);
    assert.ok(start, 'no clear pixel on the upper arm');
    const start3d = await page.evaluate(([x, y]) => window.rigkit.pickSurface(x, y), start);
    const box = await page.locator('#viewport').boundingBox();
    const before = await page.evaluate((j) => [...window.rigkit.jointWeights(Number(j))], forearm);
    const pixelsBefore = await viewportPixels(page);
    await page.mouse.move(box.x + start[0], box.y + start[1]);
    assert.equal(await page.isVisible('#brush-outline'), true, 'no brush outline under the pointer');
    await page.mouse.down();
    for (let k = 1; k <= 6; k++) await page.mouse.move(box.x + start[0] + 2 * k, box.y + start[1] + k);
    await page.mouse.up();
    const painted = await page.evaluate((j) => [...window.rigkit.jointWeights(Number(j))], forearm);
    const gained = painted.filter((w, v) => w > before[v] + 0.05).length;
    assert.ok(gained > 10, `only ${gained} vertices gained forearm weight`);
    assert.ok(painted.every((w) => w >= 0 && w <= 1 + 1e-5));
    const pixelsAfter = await viewportPixels(page);
    assert.notEqual(pixelsAfter.hash, pixelsBefore.hash, 'the heatmap did not change');
    assert.match(await page.textContent('#status-edit'), /painted lowerarm\.l: \d+ vertex changes/);
    await page.screenshot({ path: path.join(artifacts, 'paint-weights.png') });

    // A brush the page does not have is refused by name, and the weights stay.
    await assert.rejects(page.evaluate(([j, p]) => window.rigkit.paint(Number(j), p, { mode: 'spray' }), [forearm, start3d]),
      /no brush 'spray': the brushes are add, subtract, smooth and blur/);
    const kept = await page.evaluate((j) => [...window.rigkit.jointWeights(Number(j))], forearm);
    assert.deepEqual(kept, painted);
    await page.click('#error-close');

    // The whole stroke undoes at once (Ctrl+Z) and comes back (Ctrl+Shift+Z).
    await page.keyboard.press('Control+z');
    const undone = await page.evaluate((j) => [...window.rigkit.jointWeights(Number(j))], forearm);
    assert.ok(undone.every((w, v) => Math.abs(w - before[v]) < 1e-6), 'undo did not restore the weights');
    await page.keyboard.press('Control+Shift+z');
    const redone = await page.evaluate((j) => [...window.rigkit.jointWeights(Number(j))], forearm);
    assert.ok(redone.every((w, v) => Math.abs(w - painted[v]) < 1e-6), 'redo did not bring the paint back');

    // Painted weights stay through a joint move; Recompute weights replaces them, undo
    // brings them back.
    assert.equal(await page.evaluate(() => window.rigkit.weightsPainted()), true);
    await page.evaluate(() => {
      const head = [...document.getElementById('weights-joint').options].find((o) => o.textContent === 'head').value;
      const p = window.rigkit.jointPositions();
      const k = Number(head);
      window.rigkit.moveJoint(k, p[3 * k], p[3 * k + 1] + 0.01, p[3 * k + 2]);
    });
    const moved = await page.evaluate((j) => [...window.rigkit.jointWeights(Number(j))], forearm);
    assert.ok(moved.every((w, v) => Math.abs(w - painted[v]) < 1e-6), 'a joint move replaced the painted weights');
    await page.click('#recompute-weights');
    assert.equal(await page.evaluate(() => window.rigkit.weightsPainted()), false);
    assert.match(await page.textContent('#status-edit'), /weights recomputed/);
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    const back = await page.evaluate((j) => [...window.rigkit.jointWeights(Number(j))], forearm);
    assert.ok(back.every((w, v) => Math.abs(w - painted[v]) < 1e-6), 'undo did not bring the painted weights back');

    // What is downloaded is what was painted: the GLB reopens with the same weights.
    const glb = await page.evaluate(() => {
      const b = window.rigkit.exportGlb();
      let s = '';
      for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
      return btoa(s);
    });
    const bytes = Buffer.from(glb, 'base64');
    const report = await validator.validateBytes(new Uint8Array(bytes));
    assert.equal(report.issues.numErrors, 0);
    const reopened = await page.evaluate(async ([b64, j]) => {
      await window.rigkit.loadFiles([{ name: 'painted.glb', bytes: Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) }], { rig: false });
      return [...window.rigkit.jointWeights(Number(j))];
    }, [glb, forearm]);
    const largest = Math.max(...reopened.map((w, v) => Math.abs(w - painted[v])));
    assert.ok(largest < 0.01, `the reopened weights differ by ${largest}`);
    assert.deepEqual(errors, []);
  });
});
