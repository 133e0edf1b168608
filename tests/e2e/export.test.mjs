// Every GLB that `rigkit convert`, `rigkit skin` and `rigkit rig` write passes the Khronos glTF-Validator with no errors and
// loads in three.js's GLTFLoader (in Chromium) as a SkinnedMesh with the same joints.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import validator from 'gltf-validator';

import { data, evalCharacters, sweepRoot } from './data.mjs';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const targetDir = process.env.CARGO_TARGET_DIR || path.join(repo, 'target');
const bin = process.env.RIGKIT_BIN || path.join(targetDir, 'debug', 'rigkit');
// Inside the repository so that the test server (rooted there) can serve them.
const out = path.join(repo, 'target', 'e2e', 'exported');

/** tests/data's eval characters, or the whole eval set when RIGKIT_DATA names it. */
const evalFiles = () => evalCharacters().map((rel) => path.join(sweepRoot, rel));

const exported = [];
let evalCount = 0;

before(() => {
  assert.ok(fs.existsSync(bin), `no rigkit binary at ${bin}: build it first`);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const inputs = evalFiles();
  evalCount = inputs.length;
  for (const input of inputs) {
    const joints = JSON.parse(execFileSync(bin, ['info', input, '--json'])).joints;
    for (const influences of ['4', '8']) {
      const file = path.join(out, `${path.basename(input, '.glb')}-${influences}.glb`);
      execFileSync(bin, ['convert', input, file, '--max-influences', influences]);
      exported.push({ file, joints, input });
    }
    // Re-skinned by the geometric skinner: same skeleton, new weights.
    const skinned = path.join(out, `${path.basename(input, '.glb')}-skinned.glb`);
    execFileSync(bin, ['skin', input, '-o', skinned]);
    exported.push({ file: skinned, joints, input });
    // Rigged from scratch: a new skeleton fitted to the mesh.
    const rigged = path.join(out, `${path.basename(input, '.glb')}-rigged.glb`);
    execFileSync(bin, ['rig', input, '-o', rigged]);
    const riggedJoints = JSON.parse(execFileSync(bin, ['info', rigged, '--json'])).joints;
    assert.ok(riggedJoints >= 5, `${rigged}: ${riggedJoints} joints`);
    exported.push({ file: rigged, joints: riggedJoints, input });
    if (input.endsWith('mannequiny.glb') || input.endsWith('CesiumMan.glb')) {
      const humanoid = path.join(out, `${path.basename(input, '.glb')}-humanoid.glb`);
      execFileSync(bin, ['rig', input, '-o', humanoid, '--template', 'humanoid']);
      exported.push({ file: humanoid, joints: 27, input });
    }
  }
  // Animated by `rigkit animate`: a capture retargeted onto the mannequin, generated motions
  // on generated creatures.
  const animatedDir = path.join(out, 'animated');
  fs.mkdirSync(animatedDir, { recursive: true });
  const creature = path.join(animatedDir, 'creatures');
  execFileSync(bin, ['lab', 'dataset', 'export', creature, '--morphology', 'quadruped', '--n', '1', '--seed', '4']);
  execFileSync(bin, ['lab', 'dataset', 'export', creature, '--morphology', 'bird', '--n', '1', '--seed', '4']);
  const animations = [
    [path.join(data, 'eval', 'mannequiny.glb'), path.join(data, 'motion', 'cmu', '01_01.bvh'), 'mannequiny-cmu.glb'],
    [path.join(creature, 'quadruped-4.glb'), 'walk', 'quadruped-walk.glb'],
    [path.join(creature, 'bird-4.glb'), 'flap', 'bird-flap.glb'],
    // With corrective morph targets keyed through the clip.
    [path.join(data, 'eval', 'mannequiny.glb'), path.join(data, 'motion', 'cmu', '01_01.bvh'),
      'mannequiny-corrected.glb', '--correctives'],
  ];
  for (const [input, motion, name, ...more] of animations) {
    const file = path.join(animatedDir, name);
    execFileSync(bin, ['animate', input, '--motion', motion, '-o', file, ...more]);
    const { joints } = JSON.parse(execFileSync(bin, ['info', file, '--json']));
    exported.push({ file, joints, input: file, animated: true });
  }
  // Generated training samples: a creature of each morphology, augmented ones, MakeHuman bodies.
  const generated = path.join(out, 'generated');
  const morphologies = ['biped', 'quadruped', 'hexapod', 'octopod', 'bird', 'fish', 'snake',
    'tentacled', 'multiheaded', 'robot'];
  const runs = [
    ...morphologies.map((m) => ['--morphology', m, '--n', '1', '--seed', '0']),
    ['--augment', '--n', '4', '--seed', '100'],
    ['--anny', '--n', '2', '--seed', '0'],
  ];
  for (const args of runs) execFileSync(bin, ['lab', 'dataset', 'export', generated, ...args]);
  const files = fs.readdirSync(generated).sort();
  assert.ok(files.length >= 16, `generated ${files}`);
  for (const f of files) {
    const file = path.join(generated, f);
    const { joints } = JSON.parse(execFileSync(bin, ['info', file, '--json']));
    exported.push({ file, joints, input: file });
  }
});

// The three.js inspection page (tests/e2e/threejs.html) served from the repository in a
// fresh browser, closed when test `t` ends; `errors` collects the page's uncaught errors.
async function threejsPage(t) {
  const server = await serve(repo);
  const browser = await launch({ webgpu: false });
  t.after(async () => { await browser.close(); await server.close(); });
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}tests/e2e/threejs.html`);
  await page.waitForFunction(() => window.ready === true);
  return { page, errors };
}

// Where the test server serves `file` (a path under the repository).
const served = (file) => `/${path.relative(repo, file).split(path.sep).join('/')}`;

test('converted eval characters pass the glTF validator', async () => {
  // Four files per eval character, two humanoid rigs, four animated and 16 generated ones.
  assert.ok(exported.length >= 4 * evalCount + 2 + 4 + 16, `${exported.length} files exported`);
  for (const { file } of exported) {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)));
    const errors = report.issues.messages.filter((m) => m.severity === 0);
    assert.equal(report.issues.numErrors, 0,
      `${path.basename(file)}: ${JSON.stringify(errors.slice(0, 5), null, 1)}`);
  }
});

test('converted eval characters load in three.js as skinned meshes', async (t) => {
  const { page, errors } = await threejsPage(t);
  for (const { file, joints } of exported) {
    const url = served(file);
    const found = await page.evaluate((u) => window.inspectGlb(u), url);
    assert.ok(found.skinnedMeshes >= 1 && found.sameSkeleton, `${url}: ${JSON.stringify(found)}`);
    assert.equal(found.bones, joints, `${url}: bones`);
    assert.ok(found.vertices > 0, url);
  }
  assert.deepEqual(errors, []);
});

test('animated characters play in three.js: the skinned vertices move', async (t) => {
  const { page } = await threejsPage(t);
  const animated = exported.filter((e) => e.animated);
  assert.equal(animated.length, 4);
  for (const { file } of animated) {
    const url = served(file);
    const r = await page.evaluate((u) => window.skinnedTravel(u, 0, [0, 0.25, 0.5, 2.0]), url);
    assert.equal(r.clips, 1, url);
    assert.ok(r.finite, `${url}: non-finite skinned vertices`);
    assert.ok(r.travel > 0.02 * r.size, `${url}: vertices moved ${r.travel} (size ${r.size})`);
  }
});

test('corrective morph weights play in three.js: named targets whose influences move', async (t) => {
  const { page } = await threejsPage(t);
  const file = exported.find((e) => e.file.endsWith('mannequiny-corrected.glb')).file;
  const url = served(file);
  const r = await page.evaluate((u) => window.morphInfluences(u, 0, [0, 2, 4, 8]), url);
  assert.equal(r.names.length, 32, JSON.stringify(r.names));
  assert.ok(r.names.every((n) => n.startsWith('corrective_')), JSON.stringify(r.names));
  const moved = Math.max(...r.influences[0].map((w, i) =>
    Math.max(...r.influences.map((frame) => Math.abs(frame[i] - w)))));
  assert.ok(moved > 0.05, `corrective influences moved only ${moved}`);
});

test('animations survive conversion: three.js poses the same bones the same way', async (t) => {
  const { page } = await threejsPage(t);
  let compared = 0;
  for (const { file, input } of exported.filter((e) => e.file.endsWith('-4.glb'))) {
    const info = JSON.parse(execFileSync(bin, ['info', input, '--json']));
    if (info.clips.length === 0) continue;
    // The original, next to the export so that the test server can reach it.
    const original = path.join(out, `original-${path.basename(input)}`);
    fs.copyFileSync(input, original);
    const extent = Math.hypot(...info.boundsMax.map((m, i) => m - info.boundsMin[i]));
    for (const clip of [0, info.clips.length - 1]) {
      const { duration } = info.clips[clip];
      const times = [0, 0.37 * duration, 0.81 * duration];
      const a = await page.evaluate(([u, c, ts]) => window.animatedBones(u, c, ts), [served(original), clip, times]);
      const b = await page.evaluate(([u, c, ts]) => window.animatedBones(u, c, ts), [served(file), clip, times]);
      assert.equal(b.clips, info.clips.length, `${path.basename(file)}: clips`);
      a.poses.forEach((pose, i) => {
        for (const [name, p] of Object.entries(b.poses[i])) {
          if (!(name in pose)) continue;
          const d = Math.hypot(...p.map((x, k) => x - pose[name][k]));
          assert.ok(d <= 1e-4 * extent,
            `${path.basename(file)} clip ${clip} t=${times[i]}: bone ${name} is ${d} away`);
          compared += 1;
        }
      });
    }
  }
  assert.ok(compared > 1000, `only ${compared} bone positions compared`);
});
