import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { neededPacks, requirementsOf } from '../compiler/requirements.ts';
import { compilePackDir, isPackDir, renderDiagnostic } from './packs.ts';
import { UsageError, type Io } from './io.ts';

/** What a pack's `package.json` must say for npm to carry it and for `extends`/`dependsOn` to find it. */
export interface PackageJson {
  name: string;
  version: string;
  description?: string;
  keywords?: string[];
  peerDependencies?: Record<string, string>;
  files?: string[];
  [field: string]: unknown;
}

/** The files npm publishes of a pack: its YAML and its notes (npm adds package.json, README and LICENSE itself). */
export const PACKAGE_FILES = ['*.yaml', '**/*.yaml', '*.yml', '**/*.yml', '*.md'];

/** Documents beside `pack.yaml` that travel with the pack. */
const DOCUMENT = /^(readme|notes|changelog|license|licence)(\.(md|txt))?$/i;

/**
 * The `package.json` a pack is published with: its own, which must name the pack by its id and carry
 * its version (a pack is found by its package name, and its version is checked against ranges); or,
 * when it has none, one made from `pack.yaml`, with the packs it builds on as peer dependencies.
 */
export function packageJsonOf(dir: string): PackageJson {
  const manifest = readFileSync(join(dir, 'pack.yaml'), 'utf8');
  const r = requirementsOf(manifest);
  if (!r.id) throw new UsageError(`the pack in \`${dir}\` has no id in its pack.yaml`);
  if (!r.version) throw new UsageError(`the pack \`${r.id}\` has no version in its pack.yaml; npm needs one (e.g. \`version: 0.1.0\`)`);
  const peers: Record<string, string> = Object.create(null);
  for (const need of neededPacks(r)) peers[need.id] = need.range ?? '*';
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return { name: r.id, version: r.version, description: `A rulebook pack: ${r.id}`, keywords: ['rulebook-pack'], ...(Object.keys(peers).length ? { peerDependencies: { ...peers } } : {}), files: PACKAGE_FILES };
  let own: unknown;
  try {
    own = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`\`${file}\` is not JSON (${(e as Error).message})`);
  }
  if (!own || typeof own !== 'object' || Array.isArray(own)) throw new UsageError(`\`${file}\` is not a JSON object`);
  const pkg = own as Partial<PackageJson>;
  if (pkg.name !== r.id) throw new UsageError(`\`${file}\` names the package \`${String(pkg.name)}\` but the pack's id is \`${r.id}\`: other packs find it by that name in node_modules, so give the package the pack's id`);
  if (pkg.version !== r.version) throw new UsageError(`\`${file}\` gives version ${String(pkg.version)} but pack.yaml gives ${r.version}: version ranges are checked against pack.yaml, so make them the same`);
  return { ...pkg, name: r.id, version: r.version, peerDependencies: { ...peers, ...(pkg.peerDependencies ?? {}) } };
}

/**
 * `rulebook pack [PATH]`: the pack as an npm tarball (`<id>-<version>.tgz`), written by `npm pack`.
 * Only the pack goes in: the YAML files the compiler reads (with the same confinement: no link out of
 * the folder), its scenarios, its notes and its package.json are copied to a fresh folder and packed
 * from there, with the package's scripts never run. A pack that does not compile is not packed.
 */
export function packCommand(path: string, opts: { out?: string }, io: Io): number {
  if (!isPackDir(path)) throw new UsageError(`\`${path}\` is not a pack folder (no pack.yaml)`);
  const pack = compilePackDir(path);
  const errors = pack.result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    for (const d of errors) io.err(`${renderDiagnostic(pack, d)}\n`);
    io.err(`rulebook: ${path} has ${errors.length} error(s), so it was not packed\n`);
    return 1;
  }
  const refused = pack.files.find((f) => f.refused);
  if (refused) throw new UsageError(`\`${join(path, refused.path)}\` cannot be packed: ${refused.refused!.message}`);
  const pkg = packageJsonOf(path);
  const out = resolve(opts.out ?? '.');
  mkdirSync(out, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'rulebook-pack-'));
  try {
    for (const f of pack.files) {
      const target = join(staging, ...f.path.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.text);
    }
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (DOCUMENT.test(name) && statSync(full).isFile()) copyFileSync(full, join(staging, name));
    }
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    const answer = execFileSync('npm', ['pack', staging, '--pack-destination', out, '--ignore-scripts', '--json', '--silent'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const [written] = JSON.parse(answer) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const tarball = relative(process.cwd(), join(out, written.filename)) || written.filename;
    io.out(`wrote ${tarball.split(sep).join('/')} (${pkg.name}@${pkg.version}, ${written.files.length} files)\n`);
    return 0;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
