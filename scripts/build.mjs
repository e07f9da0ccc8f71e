/**
 * `npm run build` (also run by npm's `prepare` on `npm install` and `npm ci`): the CLI and the
 * simulation's worker entries bundled to plain JavaScript in dist/node/, so that starting them does
 * not transpile TypeScript. bin/built.mjs uses the build only while it is up to date with every
 * file it was built from, and the TypeScript sources through tsx otherwise.
 *
 * Packages are bundled too (loading chevrotain's hundreds of little modules one by one costs more
 * than the rest of a start), except those that read files beside their own code at run time or
 * start threads from their own files.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUILD_DIR, ENTRIES, INPUTS_FILE, ROOT } from '../bin/built.mjs';

const EXTERNAL = ['bullmq', 'ioredis', 'tinypool', 'vite', 'playwright-core', 'fsevents', 'lightningcss', 'esbuild', 'tsx'];

/**
 * `import.meta.url` is each source file's own URL, as it is when tsx runs the sources: the code
 * finds package.json, schemas/, content/ and the worker entries beside itself, from the folder it is
 * built into.
 */
const sourceUrls = (out) => ({
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
      const fromBuild = relative(out, args.path).split(sep).join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBuild)}, import.meta.url).href`), loader: 'ts' };
    });
  },
});

/** A build no longer in use is removed after this long: a process started on it may still load its chunks. */
const KEEP_MS = 60 * 60 * 1000;

/**
 * Builds into a folder of its own beside `link` (`dist/node.<pid>.<time>`), never written again
 * once built, then points `link` at it by renaming a new symbolic link over it, which is atomic:
 * two builds at once both finish, the last one's folder is used, and a process that started on
 * the other keeps the files it loads (bin/built.mjs reads a build through its real folder).
 */
export async function buildNode(link = BUILD_DIR) {
  const out = `${link}.${process.pid}.${Date.now()}`;
  try {
    const n = await buildInto(out);
    const pointer = `${out}.link`;
    symlinkSync(basename(out), pointer);
    // A build of before builds had their own folders is a folder where the link goes.
    if (lstatSync(link, { throwIfNoEntry: false })?.isDirectory()) moveAside(link);
    renameSync(pointer, link);
    removeOldBuilds(link);
    return n;
  } catch (e) {
    rmSync(out, { recursive: true, force: true });
    throw e;
  }
}

function moveAside(folder) {
  try {
    renameSync(folder, `${folder}.${process.pid}.old`);
  } catch (e) {
    // Another build moved it first.
    if (e.code !== 'ENOENT') throw e;
  }
}

function removeOldBuilds(link) {
  const dir = dirname(link);
  const prefix = `${basename(link)}.`;
  let inUse;
  try {
    inUse = readlinkSync(link);
  } catch {
    return;
  }
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || name === inUse) continue;
    const path = join(dir, name);
    const s = lstatSync(path, { throwIfNoEntry: false });
    if (s && Date.now() - s.mtimeMs > KEEP_MS) rmSync(path, { recursive: true, force: true });
  }
}

async function buildInto(out) {
  const started = Date.now();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, source]) => [name, source])),
    outdir: out,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    external: EXTERNAL,
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: { js: "import { createRequire as __rulebookRequire } from 'node:module'; const require = __rulebookRequire(import.meta.url);" },
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [sourceUrls(out)],
  });
  // A package's files are not checked one by one: npm rewrites node_modules/.package-lock.json
  // whenever it installs, updates or removes a package.
  const own = Object.keys(result.metafile.inputs).filter((p) => !p.split('/').includes('node_modules'));
  const inputs = [...own, 'node_modules/.package-lock.json', relative(ROOT, fileURLToPath(import.meta.url)), 'bin/built.mjs'].map((p) => {
    const s = statSync(join(ROOT, p));
    // A file changed while it was bundled may be bundled as it was before: recorded so that it
    // never matches, the build is not used until the next one. (File times lag the clock a little.)
    return [p, s.size, s.mtimeMs >= started - 50 ? -1 : s.mtimeMs];
  });
  writeFileSync(join(out, INPUTS_FILE), JSON.stringify({ node: process.versions.node, inputs }));
  return inputs.length;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const t = performance.now();
  const at = process.argv.indexOf('--out');
  const link = at > 0 ? resolve(process.argv[at + 1]) : BUILD_DIR;
  try {
    const n = await buildNode(link);
    console.log(`built ${relative(process.cwd(), link) || '.'} from ${n} files in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  } catch (e) {
    // As npm's `prepare`, a source that does not bundle (someone's edit half done) must not fail
    // `npm install`: the CLI runs the sources through tsx meanwhile.
    if (process.env.npm_lifecycle_event !== 'prepare') throw e;
    const first = e.errors?.[0];
    const why = first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ''}${first.text}` : e.message;
    console.warn(`rulebook: not bundled (${why}); the CLI runs the TypeScript sources through tsx until \`npm run build\``);
  }
}
