// Where the end-to-end tests find real characters. Single files come from the repository's own
// `tests/data` (small CC0/CC-BY files, see its README), so a clone alone runs the tests. Sweeps
// over a whole set cover `tests/data` too, and the full shared set only when RIGKIT_DATA names it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** `tests/data` in the repository. */
export const data = path.resolve(here, '..', 'data');

/** What sweeps cover: `$RIGKIT_DATA` when set explicitly, else `tests/data`. */
export const sweepRoot = process.env.RIGKIT_DATA || data;

/** `{ name, bytes }` of `rel` in `tests/data`, as `dropFiles` takes it. */
export const readData = (rel) => ({ name: path.basename(rel), bytes: fs.readFileSync(path.join(data, rel)) });

/** `{ name, bytes }` of `rel` in the sweep's root. */
export const readSweep = (rel) => ({ name: path.basename(rel), bytes: fs.readFileSync(path.join(sweepRoot, rel)) });

/** Files ending in `extension` under `dir`, recursively, as sorted paths relative to `dir`. */
function filesUnder(dir, extension) {
  return fs.readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(extension) && fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

/**
 * Every eval character of the sweep's root, as `eval/...` paths relative to it: the whole eval
 * set (at least 14) from RIGKIT_DATA, the 9 of `tests/data` otherwise. Throws, naming the folder,
 * when it is missing or short, so that a sweep never passes over nothing.
 */
export function evalCharacters() {
  const dir = path.join(sweepRoot, 'eval');
  if (!fs.existsSync(dir)) {
    throw new Error(`${dir} does not exist: RIGKIT_DATA must name the shared data set (or leave it unset for tests/data)`);
  }
  const files = filesUnder(dir, '.glb').map((f) => `eval/${f}`);
  const least = process.env.RIGKIT_DATA ? 14 : 9;
  if (files.length < least) {
    throw new Error(`expected at least ${least} eval characters in ${dir}, found ${files.length}: ${files}`);
  }
  return files;
}
