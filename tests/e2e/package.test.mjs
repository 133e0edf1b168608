// The npm package as a marketplace engineer meets it: `npm/pack.sh` builds the tarball from
// the page's release build; fresh Vite and webpack apps with three.js install it, build with
// no configuration, and rig, animate, skin and export a character in headless Chromium.
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
const apps = path.join(repo, 'target', 'e2e', 'package-apps');
const testDependencies = JSON.parse(fs.readFileSync(path.join(repo, 'tests', 'package.json'), 'utf8')).devDependencies;
const crateVersion = fs.readFileSync(path.join(repo, 'Cargo.toml'), 'utf8').match(/^version = "(.*)"$/m)[1];

const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

// How each bundler is set up the way its own quick start says, with no configuration file:
// Vite builds index.html and what it imports into dist/; webpack bundles src/index.js into
// dist/main.js, beside which the app keeps its own page.
const BUNDLERS = {
  vite: {
    tools: ['vite'],
    setup(app) {
      fs.copyFileSync(path.join(here, 'package-app', 'index.html'), path.join(app, 'index.html'));
      fs.copyFileSync(path.join(here, 'package-app', 'main.js'), path.join(app, 'main.js'));
      fs.mkdirSync(path.join(app, 'public'));
      fs.copyFileSync(path.join(data, 'eval', 'CesiumMan.glb'), path.join(app, 'public', 'character.glb'));
    },
    build: (app) => run(path.join(app, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'error'], app),
  },
  webpack: {
    tools: ['webpack', 'webpack-cli'],
    setup(app) {
      fs.mkdirSync(path.join(app, 'src'));
      fs.copyFileSync(path.join(here, 'package-app', 'main.js'), path.join(app, 'src', 'index.js'));
    },
    build(app) {
      run(path.join(app, 'node_modules', '.bin', 'webpack'), ['--mode', 'production', '--no-stats'], app);
      fs.copyFileSync(path.join(here, 'package-app', 'index.html'), path.join(app, 'dist', 'index.html'));
      fs.copyFileSync(path.join(data, 'eval', 'CesiumMan.glb'), path.join(app, 'dist', 'character.glb'));
    },
  },
};

let tarball;
before(() => {
  tarball = path.join(repo, run('bash', ['npm/pack.sh', '--from-dist'], repo).trim().split('\n').pop());
});

test('the tarball is the crate\'s version and holds the module, its types and the wasm', () => {
  assert.ok(tarball.endsWith(`rigkit-${crateVersion}.tgz`), tarball);
  const listed = run('tar', ['-tzf', tarball], repo).split('\n');
  for (const file of ['package.json', 'rigkit.js', 'rigkit_bg.wasm', 'web/rigkit-embed.js', 'web/rigkit-embed.d.ts',
    'web/rigkit-three.js', 'web/rigkit-three.d.ts', 'web/rig-worker.js', 'web/carry-helper.js', 'README.md']) {
    assert.ok(listed.includes(`package/${file}`), `${file} is not in the tarball`);
  }
  const manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], repo));
  assert.equal(manifest.version, crateVersion);
});

for (const [bundler, how] of Object.entries(BUNDLERS)) {
  describe(`the npm package in a ${bundler} + three.js app`, () => {
    const app = path.join(apps, bundler);
    let server;
    before(() => {
      fs.rmSync(app, { recursive: true, force: true });
      fs.mkdirSync(app, { recursive: true });
      how.setup(app);
      const tools = Object.fromEntries(how.tools.map((t) => [t, testDependencies[t]]));
      fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({
        name: `marketplace-app-${bundler}`,
        private: true,
        type: 'module',
        dependencies: { rigkit: `file:${tarball}`, three: testDependencies.three },
        devDependencies: tools,
      }, null, 2));
      // The registry packages come from npm's cache, filled when tests/ installed the same versions.
      run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
      how.build(app);
    });
    after(async () => server && server.close());

    test('the build emits the wasm as an asset', () => {
      const emitted = fs.readdirSync(path.join(app, 'dist'), { recursive: true });
      assert.ok(emitted.some((f) => String(f).endsWith('.wasm')), emitted.join());
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
        fs.writeFileSync(path.join(repo, 'target', 'e2e', `package-${bundler}.json`), JSON.stringify(r, null, 2));
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
        assert.match(r.refused || '', /'broken\.glb' is not a valid glTF\/GLB file/);
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
}
