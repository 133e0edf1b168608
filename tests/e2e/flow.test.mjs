// The page as a first-time user meets it: the four steps (Rig, Check, Animate, Download) in
// real Chromium at desktop and phone sizes, the shortest path from a sample to a downloaded
// animated rig (opened in three.js), keyboard use, and axe-core's accessibility rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import validator from 'gltf-validator';

import { serve } from './server.mjs';
import { launch, openApp, viewportPixels } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const dist = process.env.RIGKIT_DIST || path.join(repo, 'dist');
// Inside the repository so that the three.js check page (served from the root) can load it.
const artifacts = path.join(repo, 'target', 'e2e', 'flow');
const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const STEPS = ['rig', 'check', 'animate', 'download'];
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } };

/** What the page shows of step `step`: its tab, its panel, and where each visible control lies. */
async function stepView(page, step) {
  return page.evaluate((step) => {
    const panel = document.getElementById(`panel-${step}`);
    const tab = document.getElementById(`tab-${step}`);
    const box = (e) => e.getBoundingClientRect();
    const shown = (e) => e.checkVisibility();
    const controls = [...panel.querySelectorAll('button, select, input, summary, label.button, label.dropzone')]
      .filter((e) => shown(e) && !(e.type === 'file' || e.hidden))
      .map((e) => ({ id: e.id || e.textContent.trim().slice(0, 24), right: box(e).right, width: box(e).width }));
    return {
      selected: tab.getAttribute('aria-selected'),
      panelShown: !panel.hidden && box(panel).height > 0,
      heading: panel.querySelector('h2').textContent,
      text: panel.textContent.replace(/\s+/g, ' ').trim(),
      controls,
      pageWidth: document.documentElement.scrollWidth,
      windowWidth: innerWidth,
      otherPanelsHidden: [...document.querySelectorAll('[role="tabpanel"]')].every((p) => p === panel || p.hidden),
    };
  }, step);
}

/** axe-core's serious and critical violations on the page as it is now. */
async function seriousViolations(page) {
  // Evaluated through the debugging protocol: the page's CSP rightly refuses an injected <script>.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(fs.readFileSync(axeSource, 'utf8'));
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 4) })));
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

let server;
let root;
let browser;
before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), `no built page in ${dist}: run trunk build first`);
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });
  server = await serve(dist);
  root = await serve(repo);
  browser = await launch({ webgpu: false });
});
after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
  if (root) await root.close();
});

describe('the four steps', () => {
  test('a first-time user rigs, checks, animates and downloads a sample in four clicks; the download plays in three.js', async () => {
    const { page, errors, requests } = await openApp(browser.context, server.url);
    await page.setViewportSize(SIZES.desktop);
    // The page opens on step 1 with a drop zone, the samples and a sentence of what happens.
    const landing = await stepView(page, 'rig');
    assert.equal(landing.selected, 'true');
    assert.match(landing.text, /nothing is uploaded/);
    assert.match(landing.text, /Choose a file/);
    let clicks = 0;
    const click = async (selector) => { clicks += 1; await page.click(selector); };

    // 1. A sample: it opens and is rigged, and the page moves on to Check.
    await click('[data-sample="fox.glb"]');
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.rigged && window.rigkit.step === 'check',
      null, { timeout: 120000 });
    const check = await stepView(page, 'check');
    assert.ok(check.panelShown && check.otherPanelsHidden, JSON.stringify(check));
    assert.match(await page.textContent('#rig-summary'), /\d+ joints, rigged in \d+\.\d s/);
    const rigged = await viewportPixels(page);
    assert.ok(rigged.skeleton > 50, `no skeleton drawn after the rig (${rigged.skeleton} pixels)`);
    await page.screenshot({ path: path.join(artifacts, 'flow-1-rigged.png') });

    // 2. Animate, 3. walk: the generated walk plays.
    await click('#tab-animate');
    await click('#motion-list [data-motion="gen:walk"]');
    await page.waitForFunction(() => window.rigkit.playback.playing, null, { timeout: 60000 });
    assert.equal(await page.getAttribute('#motion-list [aria-pressed="true"]', 'data-motion'), 'clip:0');
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(artifacts, 'flow-2-walking.png') });

    // 4. Download: a GLB with the walk in it.
    const [download] = await Promise.all([page.waitForEvent('download'), click('#download-button')]);
    assert.equal(clicks, 4);
    const file = path.join(artifacts, download.suggestedFilename());
    await download.saveAs(file);
    assert.match(path.basename(file), /^fox-rigkit\.glb$/);
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)));
    assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 5)));

    // three.js opens it as a skinned mesh whose walk moves the body.
    const three = await browser.context.newPage();
    await three.goto(`${root.url}tests/e2e/threejs.html`);
    await three.waitForFunction(() => window.ready === true);
    const url = `/${path.relative(repo, file).split(path.sep).join('/')}`;
    const found = await three.evaluate((u) => window.inspectGlb(u), url);
    assert.ok(found.skinnedMeshes >= 1 && found.bones >= 10, JSON.stringify(found));
    const walk = await three.evaluate((u) => window.skinnedTravel(u, 0, [0, 0.25, 0.5]), url);
    assert.equal(walk.clips, 1);
    assert.ok(walk.finite && walk.travel > 0.02 * walk.size, JSON.stringify(walk));
    await three.close();

    assert.deepEqual(errors, []);
    const foreign = requests.filter((u) => !u.startsWith(server.url) && !/^(data|blob):/.test(u));
    assert.deepEqual(foreign, [], 'requests left the page origin');
    await page.close();
  });

  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`each step shows its content at ${size} size (${viewport.width}×${viewport.height}), with nothing off the side`, async () => {
      const { page, errors } = await openApp(browser.context, server.url);
      await page.setViewportSize(viewport);
      const pixels = await viewportPixels(page);
      assert.ok(pixels.colours > 50 && pixels.skeleton > 50, `viewport blank or no skeleton: ${JSON.stringify(pixels)}`);
      for (const step of STEPS) {
        await page.click(`#tab-${step}`);
        const view = await stepView(page, step);
        await page.screenshot({ path: path.join(artifacts, `${size}-${step}.png`), fullPage: true });
        assert.equal(view.selected, 'true', step);
        assert.ok(view.panelShown && view.otherPanelsHidden, `${step}: ${JSON.stringify(view)}`);
        assert.ok(view.heading.length > 0 && view.text.length > 60, `${step}: ${view.text}`);
        assert.ok(view.controls.length >= 2, `${step}: only ${JSON.stringify(view.controls)}`);
        assert.ok(view.pageWidth <= view.windowWidth, `${step}: the page is ${view.pageWidth} px wide in a ${view.windowWidth} px window`);
        for (const c of view.controls) {
          assert.ok(c.right <= view.windowWidth + 0.5 && c.width > 0, `${step}: ${c.id} runs off the side (${c.right} px)`);
        }
      }
      const expected = {
        rig: ['Zombie', 'Fox', 'rig-button'],
        check: ['weights-joint', 'mode', 'undo'],
        animate: ['Rest pose', 'walk'],
        download: ['download-now'],
      };
      for (const [step, ids] of Object.entries(expected)) {
        await page.click(`#tab-${step}`);
        const present = (await stepView(page, step)).controls.map((c) => c.id);
        for (const id of ids) assert.ok(present.includes(id), `${step} lacks ${id}: ${present}`);
      }
      assert.deepEqual(errors, []);
      await page.close();
    });
  }

  test('the Download step renames a humanoid to VRM bone names in the file; three.js reads them', async () => {
    const { page, errors } = await openApp(browser.context, server.url);
    await page.click('#tab-download');
    await page.selectOption('#bone-names', 'vrm');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-now')]);
    const file = path.join(artifacts, `vrm-names-${download.suggestedFilename()}`);
    await download.saveAs(file);
    const three = await browser.context.newPage();
    await three.goto(`${root.url}tests/e2e/threejs.html`);
    await three.waitForFunction(() => window.ready === true);
    const found = await three.evaluate((u) => window.inspectGlb(u), `/${path.relative(repo, file).split(path.sep).join('/')}`);
    for (const name of ['hips', 'leftUpperArm', 'rightLowerLeg', 'head']) {
      assert.ok(found.boneNames.includes(name), `no ${name} in ${found.boneNames}`);
    }
    await three.close();
    // Names the page does not have are refused by name.
    await assert.rejects(page.evaluate(() => window.rigkit.exportAs('glb', 'klingon')), /unknown bone names 'klingon'/);
    // The character shown keeps its own names.
    const shown = await page.evaluate(() => [...document.getElementById('weights-joint').options].map((o) => o.textContent));
    assert.ok(!shown.includes('leftUpperArm') && shown.includes('calf_r'), shown.join());
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the steps are keyboard operable: arrow keys move between them, focus is visible', async () => {
    const { page } = await openApp(browser.context, server.url);
    await page.focus('#tab-rig');
    const seen = [];
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'End', 'Home']) {
      await page.keyboard.press(key);
      seen.push(await page.evaluate(() => [window.rigkit.step, document.activeElement.id]));
    }
    assert.deepEqual(seen.map(([step]) => step), ['check', 'animate', 'download', 'rig', 'download', 'download', 'rig']);
    assert.ok(seen.every(([step, focused]) => focused === `tab-${step}`), JSON.stringify(seen));
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused step shows no outline');
    // Enter on a sample opens and rigs it, as a click does.
    await page.keyboard.press('Tab');
    await page.focus('[data-sample="snake.glb"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.rigged, null, { timeout: 120000 });
    assert.match(await page.evaluate(() => window.rigkit.current.name), /^snake/);
    await page.close();
  });

  test('test poses in the Check step bend the rig without adding a clip; Rest takes them back', async () => {
    const { page, errors } = await openApp(browser.context, server.url);
    await page.click('#tab-check');
    const poses = await page.$$eval('#test-pose-list button', (bs) => bs.map((b) => b.textContent));
    assert.ok(poses.includes('walk') && poses.includes('rest'), poses.join());
    const before = await viewportPixels(page);
    await page.click('#test-pose-list button:text-is("walk")');
    const posed = await page.evaluate(() => window.rigkit.posedPositions().length);
    assert.ok(posed > 0, 'the walk test pose posed nothing');
    assert.notEqual((await viewportPixels(page)).hash, before.hash, 'the test pose drew nothing new');
    await page.screenshot({ path: path.join(artifacts, 'test-pose-walk.png') });
    assert.equal(await page.evaluate(() => window.rigkit.motions().filter((m) => m.kind === 'clip').length), 0);
    await page.click('#test-pose-list button:text-is("rest")');
    assert.equal(await page.evaluate(() => window.rigkit.posedPositions().length), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the influence chart lists every joint by its share of the body; a click shows its heatmap', async () => {
    const { page, errors } = await openApp(browser.context, server.url);
    await page.click('#tab-check');
    await page.click('#influence summary');
    await page.waitForSelector('#influence-chart button');
    const rows = await page.$$eval('#influence-chart button', (bs) => bs.map((b) => ({
      joint: Number(b.dataset.joint), share: parseFloat(b.lastChild.textContent),
    })));
    const joints = await page.evaluate(() => window.rigkit.jointParents().length);
    assert.equal(rows.length, joints);
    assert.ok(rows.every((r, i) => i === 0 || r.share <= rows[i - 1].share), 'not largest first');
    const total = rows.reduce((a, r) => a + r.share, 0);
    assert.ok(Math.abs(total - 100) < 1.5, `shares add up to ${total} %`);
    await page.click('#influence-chart li:first-child button');
    assert.equal(await page.inputValue('#weights-joint'), String(rows[0].joint));
    assert.equal(await page.isVisible('#legend'), true);
    await page.screenshot({ path: path.join(artifacts, 'influence-chart.png') });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('two fingers pinch to zoom and drag to pan on a phone', async () => {
    const { page } = await openApp(browser.context, server.url);
    await page.setViewportSize(SIZES.phone);
    const spread = () => page.evaluate(() => {
      const s = window.rigkit.jointScreenPositions();
      const xs = s.filter((_, i) => i % 2 === 0);
      const ys = s.filter((_, i) => i % 2 === 1);
      return { w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys), x: xs[0], y: ys[0] };
    });
    const box = await page.locator('#viewport').boundingBox();
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    const finger = (type, id, x, y) => page.dispatchEvent('#viewport', type, {
      pointerId: id, pointerType: 'touch', isPrimary: id === 1, clientX: x, clientY: y, button: 0, buttons: type === 'pointerup' ? 0 : 1,
    });
    const before = await spread();
    await finger('pointerdown', 1, cx - 20, cy);
    await finger('pointerdown', 2, cx + 20, cy);
    for (let k = 1; k <= 5; k++) {
      await finger('pointermove', 1, cx - 20 - 12 * k, cy);
      await finger('pointermove', 2, cx + 20 + 12 * k, cy);
    }
    await finger('pointerup', 1, cx - 80, cy);
    await finger('pointerup', 2, cx + 80, cy);
    const zoomed = await spread();
    assert.ok(zoomed.h > 1.5 * before.h, `pinching out did not zoom in: ${JSON.stringify([before, zoomed])}`);
    // Both fingers moving down together pan the view down.
    await finger('pointerdown', 1, cx - 20, cy);
    await finger('pointerdown', 2, cx + 20, cy);
    for (let k = 1; k <= 4; k++) {
      await finger('pointermove', 1, cx - 20, cy + 10 * k);
      await finger('pointermove', 2, cx + 20, cy + 10 * k);
    }
    await finger('pointerup', 1, cx - 20, cy + 40);
    await finger('pointerup', 2, cx + 20, cy + 40);
    const panned = await spread();
    assert.ok(panned.y > zoomed.y + 10, `two fingers did not pan: ${JSON.stringify([zoomed, panned])}`);
    assert.ok(Math.abs(panned.h - zoomed.h) < 0.1 * zoomed.h, 'panning zoomed');
    await page.close();
  });

  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`axe-core finds no serious or critical violations in any step at ${size} size`, async () => {
      const { page } = await openApp(browser.context, server.url);
      await page.setViewportSize(viewport);
      const found = {};
      for (const step of STEPS) {
        await page.click(`#tab-${step}`);
        const serious = await seriousViolations(page);
        if (serious.length > 0) found[step] = serious;
      }
      // The paint tools, shown in the Check step's paint mode.
      await page.evaluate(() => window.rigkit.setMode('paint'));
      const painting = await seriousViolations(page);
      if (painting.length > 0) found['check, painting'] = painting;
      assert.deepEqual(found, {}, JSON.stringify(found, null, 1));
      await page.close();
    });
  }
});
