/**
 * The entries of rulebook (the CLI, the simulation's workers) from the plain JavaScript build of
 * scripts/build.mjs when it is up to date with every file it was built from, else from the
 * TypeScript sources through tsx. Up to date means each of those files has the size and
 * modification time it had at the build: a check of a few milliseconds, so a start never runs
 * stale code and never pays for the transpiler when the build is current.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BUILD_DIR = join(ROOT, 'dist', 'node');
export const INPUTS_FILE = 'inputs.json';
/** Each entry's name in the build and its TypeScript source. */
export const ENTRIES = { rulebook: 'cli/main.ts', worker: 'simulate/worker.ts', shardJob: 'simulate/shardJob.ts' };

/** The real folder of the build in use (BUILD_DIR links to the latest), once found current; false when the sources are used. */
let current;

/**
 * Whether dist/node holds a build of exactly the files there are now. Its real folder is read once:
 * a build made meanwhile links dist/node elsewhere and leaves this one's files as they are.
 */
export function buildIsCurrent() {
  if (current !== undefined) return current !== false;
  current = false;
  try {
    const dir = realpathSync(BUILD_DIR);
    const { node, inputs } = JSON.parse(readFileSync(join(dir, INPUTS_FILE), 'utf8'));
    if (node !== process.versions.node) return false;
    for (const [path, size, mtime] of inputs) {
      const s = statSync(join(ROOT, path));
      if (s.size !== size || s.mtimeMs !== mtime) return false;
    }
    current = dir;
  } catch {
    // No build, or one left half-written: the sources are used.
  }
  return current !== false;
}

/** The module of an entry of ENTRIES. */
export async function importEntry(name) {
  if (buildIsCurrent()) return import(pathToFileURL(join(current, `${name}.mjs`)).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(pathToFileURL(join(ROOT, ENTRIES[name])).href);
}
