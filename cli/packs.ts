import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { compile, formatDiagnostic, type CompileResult, type Diagnostic, type SourceFile } from '../compiler/index.ts';
import { dependenciesOf, dependencyFolder, readPackFolder } from '../compiler/packFolder.ts';
import { UsageError } from './io.ts';

/** Node only: pack folders on disk, compiled with their dependencies, and the scenario files around them. */

export interface PackOnDisk {
  /** The folder as the user named it (relative paths stay relative, for clickable output). */
  dir: string;
  files: SourceFile[];
  dependencies: Record<string, SourceFile[]>;
  result: CompileResult;
}

export function isPackDir(dir: string): boolean {
  return existsSync(join(dir, 'pack.yaml')) || existsSync(join(dir, 'pack.yml'));
}

export function isDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** The pack folders named on the command line: each path is a pack or a folder of packs. */
export function packFoldersOf(paths: string[]): string[] {
  const dirs: string[] = [];
  for (const p of paths) {
    if (!isDir(p)) throw new UsageError(`\`${p}\` is not a folder; give a pack folder (with a pack.yaml) or a folder of packs`);
    const found = findPacks(p);
    if (!found.length) throw new UsageError(`no pack folder (with a pack.yaml) in \`${p}\``);
    dirs.push(...found);
  }
  return dirs;
}

/** Compiles a pack folder, with the packs it extends or depends on taken from sibling folders. */
export function compilePackDir(dir: string): PackOnDisk {
  const files = readPackFolder(dir);
  const dependencies = dependenciesOf(dir, files) ?? {};
  return { dir, files, dependencies, result: compile(files, { dependencies }) };
}

const cache = new Map<string, PackOnDisk>();
/** The same, compiled once per process for a folder. */
export function packAt(dir: string): PackOnDisk {
  const key = resolve(dir);
  let p = cache.get(key);
  if (!p) cache.set(key, (p = compilePackDir(dir)));
  return p;
}

/** A folder that is a pack, or every pack folder under it (sorted; no descent into a pack or node_modules). */
export function findPacks(dir: string): string[] {
  if (isPackDir(dir)) return [dir];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (isDir(full)) out.push(...findPacks(full));
  }
  return out;
}

/** Scenario files of a pack: every YAML file under its `scenarios/` folder. */
export function scenarioFilesOf(packDir: string): string[] {
  const root = join(packDir, 'scenarios');
  return isDir(root) ? yamlFilesUnder(root) : [];
}

/** YAML files under a folder that are not inside a pack folder. */
export function looseYamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (isDir(full)) {
      if (!isPackDir(full)) out.push(...looseYamlFiles(full));
    } else if (/\.ya?ml$/.test(name)) out.push(full);
  }
  return out;
}

function yamlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (isDir(full)) out.push(...yamlFilesUnder(full));
    else if (/\.ya?ml$/.test(name)) out.push(full);
  }
  return out;
}

/** The `pack:` a scenario file names, read without parsing the whole file. */
export function declaredPack(text: string): string | undefined {
  return text.match(/^\s*(?:-\s+)?pack:\s*["']?([a-z][a-z0-9-]*)["']?\s*(?:#.*)?$/m)?.[1];
}

/**
 * The pack folder a scenario file belongs to: the pack folder it sits in; else, for a file that
 * names its pack (`pack: tiny`), a folder of that name beside one of its parent folders, or in a
 * `packs/` or `content/` folder there.
 */
export function packDirFor(file: string, text: string): string | undefined {
  let dir = dirname(file);
  for (;;) {
    if (isPackDir(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const id = declaredPack(text);
  if (!id) return undefined;
  dir = dirname(file);
  for (;;) {
    for (const candidate of [join(dir, id), join(dir, 'packs', id), join(dir, 'content', id)]) if (isPackDir(candidate)) return relative(process.cwd(), candidate) || '.';
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function readSource(path: string): SourceFile {
  return { path: path.split(sep).join('/'), text: readFileSync(path, 'utf8') };
}

/** Where a diagnostic's file is on disk: the pack's own files, or a dependency's (`base:file.yaml`) where it was found (beside the pack, or installed). */
export function diagnosticFile(pack: PackOnDisk, d: Diagnostic): { path: string; text?: string } {
  const own = pack.files.find((f) => f.path === d.file);
  if (own) return { path: join(pack.dir, d.file).split(sep).join('/'), text: own.text };
  const [dep, ...rest] = d.file.split(':');
  const file = rest.join(':');
  const text = pack.dependencies[dep]?.find((f) => f.path === file)?.text;
  const folder = dependencyFolder(pack.dir, dep) ?? join(dirname(pack.dir.replace(/[\\/]+$/, '')), dep);
  return { path: join(folder, file).split(sep).join('/'), text };
}

/** A diagnostic as a compiler prints it, with the path from the working folder and the caret excerpt. */
export function renderDiagnostic(pack: PackOnDisk, d: Diagnostic): string {
  const where = diagnosticFile(pack, d);
  return formatDiagnostic({ ...d, file: where.path }, where.text);
}

export function packLabel(pack: PackOnDisk): string {
  const manifest = pack.files.find((f) => f.path === 'pack.yaml' || f.path === 'pack.yml')?.text;
  return pack.result.pack?.id ?? manifest?.match(/^id:\s*["']?([\w-]+)/m)?.[1] ?? basename(resolve(pack.dir));
}
