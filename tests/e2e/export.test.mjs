// Every GLB that `rigkit convert` writes passes the Khronos glTF-Validator with no errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import validator from 'gltf-validator';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const data = process.env.RIGKIT_DATA || path.resolve(repo, '..', 'shared', 'data');
const targetDir = process.env.CARGO_TARGET_DIR || path.join(repo, 'target');
const bin = process.env.RIGKIT_BIN || path.join(targetDir, 'debug', 'rigkit');

function evalFiles() {
  const dirs = ['eval', 'eval/quaternius-easy_enemies_pack', 'eval/quaternius-mech_pack'];
  return dirs.flatMap((d) => fs.readdirSync(path.join(data, d))
    .filter((f) => f.endsWith('.glb'))
    .map((f) => path.join(data, d, f)));
}

test('converted eval characters pass the glTF validator', async () => {
  assert.ok(fs.existsSync(bin), `no rigkit binary at ${bin}: build it first`);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'rigkit-export-'));
  const files = evalFiles();
  assert.ok(files.length >= 14);
  for (const input of files) {
    for (const influences of ['4', '8']) {
      const output = path.join(out, `${path.basename(input, '.glb')}-${influences}.glb`);
      execFileSync(bin, ['convert', input, output, '--max-influences', influences]);
      const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(output)));
      const errors = report.issues.messages.filter((m) => m.severity === 0);
      assert.equal(report.issues.numErrors, 0,
        `${path.basename(output)}: ${JSON.stringify(errors.slice(0, 5), null, 1)}`);
    }
  }
  fs.rmSync(out, { recursive: true, force: true });
});
