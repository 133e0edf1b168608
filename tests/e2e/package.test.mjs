// The npm package as a marketplace engineer meets it: `npm/pack.sh` builds the tarball from
// the page's release build, a fresh Vite + three.js app installs it, builds with no special
// configuration, and rigs, animates, skins and exports a character in headless Chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { data } from './data.mjs';
import { serve } from './server.mjs';
import { launch } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const app = path.join(repo, 'target', 'e2e', 'package-app');
const testDependencies = JSON.parse(fs.readFileSync(path.join(repo, 'tests', 'package.json'), 'utf8')).devDependencies;
const crateVersion = fs.readFileSync(path.join(repo, 'Cargo.toml'), 'utf8').match(/^version = "(.*)"$/m)[1];

const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the npm package in a Vite + three.js app', () => {
  let server;
  let tarball;
  before(() => {
    tarball = path.join(repo, run('bash', ['npm/pack.sh', '--from-dist'], repo).trim().split('\n').pop());
    fs.rmSync(app, { recursive: true, force: true });
    fs.mkdirSync(path.join(app, 'public'), { recursive: true });
    for (const file of ['index.html', 'main.js']) fs.copyFileSync(path.join(here, 'package-app', file), path.join(app, file));
    fs.copyFileSync(path.join(data, 'eval', 'CesiumMan.glb'), path.join(app, 'public', 'character.glb'));
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({
      name: 'marketplace-app',
      private: true,
      type: 'module',
      dependencies: { rigkit: `file:${tarball}`, three: testDependencies.three },
      devDependencies: { vite: testDependencies.vite },
    }, null, 2));
    // The registry packages come from npm's cache, filled when tests/ installed the same versions.
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
    run(path.join(app, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'error'], app);
  });
  after(async () => server && server.close());

  test('the tarball is the crate\'s version and holds the module, its types and the wasm', () => {
    assert.ok(tarball.endsWith(`rigkit-${crateVersion}.tgz`), tarball);
    const installed = path.join(app, 'node_modules', 'rigkit');
    assert.equal(JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version, crateVersion);
    for (const file of ['rigkit_bg.wasm', 'web/rigkit-embed.d.ts', 'web/rigkit-three.d.ts', 'README.md']) {
      assert.ok(fs.existsSync(path.join(installed, file)), file);
    }
    // Vite emitted the wasm as an asset of the app.
    const assets = fs.readdirSync(path.join(app, 'dist', 'assets'));
    assert.ok(assets.some((f) => f.endsWith('.wasm')), assets.join());
  });

  test('the built app rigs, animates, skins and exports a character, with nothing but its own origin', async () => {
    server = await serve(path.join(app, 'dist'));
    const browser = await launch({ webgpu: false });
    try {
      const page = await browser.context.newPage();
      const errors = [];
      const requests = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(server.url);
      await page.waitForFunction(() => window.result || window.failure, null, { timeout: 240000 });
      const failure = await page.evaluate(() => window.failure);
      assert.equal(failure, undefined);
      const r = await page.evaluate(() => window.result);
      fs.writeFileSync(path.join(repo, 'target', 'e2e', 'package-app.json'), JSON.stringify(r, null, 2));
      // The default rig of a humanoid: the library template, stage by stage.
      assert.deepEqual(r.stages, ['parse', 'voxelise', 'skeleton', 'skin', 'export']);
      assert.equal(r.recognised && r.recognised.template, 'rig-human', JSON.stringify(r.recognised));
      assert.ok(r.jointCount >= 20 && r.names.includes('pelvis'), r.names.join());
      // three.js gets the same skeleton and mesh, with the walk as an AnimationClip.
      assert.equal(r.threeBones, r.jointCount);
      assert.ok(r.threeVertices >= r.vertexCount, `${r.threeVertices} < ${r.vertexCount}`);
      assert.deepEqual(r.clips, ['walk']);
      assert.deepEqual(r.threeClips, ['walk']);
      // Skinning again keeps the skeleton and the clip; the FBX is a binary FBX.
      assert.equal(r.reskinnedJoints, r.jointCount);
      assert.deepEqual(r.reskinnedClips, ['walk']);
      assert.equal(r.fbxHeader, 'Kaydara FBX Binary');
      assert.ok(r.fbxBytes > 10000);
      // A broken file is refused with a reason; a cancelled rig rejects as an AbortError.
      assert.match(r.refused || '', /broken\.glb|GLB|glb/);
      assert.equal(r.abort, 'AbortError');
      // three.js reads the GLB's textures through blob: URLs of this page's own origin.
      const local = (u) => u.startsWith(server.url) || u.startsWith(`blob:${server.url}`);
      assert.deepEqual(requests.filter((u) => !local(u)), []);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
