// Hostile files dropped into the page: every broken file of the bad-input corpus
// (tests/corpus, the files the native corpus test checks) gives a message in the page's banner
// that names it, and the character already shown stays — its name, joints and vertices — and
// still exports. Headless Chromium on the built page (dist/), CPU backend.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { serve } from './server.mjs';
import { dropFiles, launch, openApp } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const dist = process.env.RIGKIT_DIST || path.join(repo, 'dist');
const corpus = path.join(repo, 'tests', 'corpus');
// Not broken: a file whose line primitives are skipped with a warning (it opens), and the
// script that writes the corpus.
const OPENS = new Set(['lines-and-triangles.gltf', 'make_corpus.py']);

let server;
before(async () => { server = await serve(dist); });
after(async () => server && server.close());

test('every broken file of the corpus dropped on the page gets a message naming it, and the character shown stays', async () => {
  const files = fs.readdirSync(corpus).filter((f) => !OPENS.has(f)).sort();
  assert.ok(files.length >= 35, `${files.length} corpus files`);
  const browser = await launch({ webgpu: false });
  try {
    const { page, errors } = await openApp(browser.context, server.url);
    await page.waitForFunction(() => window.rigkit.current && window.rigkit.current.joints > 0, null, { timeout: 120000 });
    const shown = () => page.evaluate(() => ({
      name: window.rigkit.current.name,
      joints: window.rigkit.jointPositions().length,
      vertices: window.rigkit.current.vertices,
    }));
    const before = await shown();
    const messages = {};
    for (const file of files) {
      await page.evaluate(() => { document.getElementById('error-banner').hidden = true; });
      await dropFiles(page, [{ name: file, bytes: fs.readFileSync(path.join(corpus, file)) }]);
      await page.waitForFunction(() => !document.getElementById('error-banner').hidden, null, { timeout: 60000 });
      messages[file] = await page.textContent('#error-text');
      assert.ok(messages[file].includes(file), `${file}: the message does not name the file: ${messages[file]}`);
      assert.deepEqual(await shown(), before, `${file} changed the character shown`);
    }
    fs.writeFileSync(path.join(repo, 'target', 'e2e', 'corpus-messages.json'), JSON.stringify(messages, null, 2));
    // What was loaded still works.
    const glb = await page.evaluate(() => window.rigkit.exportGlb(4).length);
    assert.ok(glb > 1000);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
