import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join, relative, dirname, sep, isAbsolute } from 'node:path';
import type { SourceFile } from './source.ts';
import type { CompileOptions } from './index.ts';
import { MAX_FILE_BYTES, MAX_PACK_BYTES, megabytes } from './load.ts';
import { isPackId, neededPacks, requirementsOf } from './requirements.ts';

/** Is `path` the folder `root` or inside it? */
function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Node only: the YAML files of a pack folder, with paths relative to it. A pack is untrusted: a
 * symbolic link is followed only while it stays inside the pack folder, a folder reached twice
 * (a link loop, or links multiplying one folder) is walked once, and a file too large to be a pack
 * file, or past what a whole pack may hold, is not read. Each file left out is still listed,
 * `refused`, so the compiler reports it at its path. Packages installed in the pack's folder
 * (`node_modules/`) and hidden folders (`.git/`, `.github/`) are not the pack's own files and are skipped.
 */
export function readPackFolder(dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  const root = realpathSync(dir);
  const walked = new Set<string>();
  let total = 0;
  const refuse = (full: string, message: string, hint?: string, code: 'RB0007' | 'RB0008' = 'RB0008') => out.push({ path: relative(dir, full).split(sep).join('/'), text: '', refused: { code, message, hint } });
  const walk = (d: string, real: string) => {
    walked.add(real);
    for (const name of readdirSync(d).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = join(d, name);
      const link = lstatSync(full).isSymbolicLink();
      let target = join(real, name);
      if (link) {
        try {
          target = realpathSync(full);
        } catch (e) {
          refuse(full, `this link cannot be followed (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'a link that points at itself or at nothing is left out; replace it by the file it should be');
          continue;
        }
        if (!inside(root, target)) {
          if (/\.ya?ml$/.test(name) || statSync(target).isDirectory()) refuse(full, 'this link points outside the pack folder, so it is not read', 'a pack is read from its own folder only: copy the file into the pack instead of linking to it');
          continue;
        }
      }
      const stat = statSync(target);
      if (stat.isDirectory()) {
        if (link && walked.has(target)) refuse(full, 'this link leads to a folder already read (a loop, or a second way into it), so it is not followed', 'remove the link, or point it at a folder that is not above it and not linked already');
        else walk(full, target);
      } else if (/\.ya?ml$/.test(name) && !stat.isFile()) {
        refuse(full, 'this is not a plain file (a pipe or a device), so it is not read', 'a pack holds plain YAML files only');
      } else if (/\.ya?ml$/.test(name)) {
        total += stat.size;
        if (stat.size > MAX_FILE_BYTES) refuse(full, `this file is ${megabytes(stat.size)}, more than a pack file may be (${megabytes(MAX_FILE_BYTES)})`, 'split it into several files, or remove what is not rules or cards', 'RB0007');
        else if (total > MAX_PACK_BYTES) refuse(full, `with this file the pack holds more than a pack may (${megabytes(MAX_PACK_BYTES)} in all)`, 'a pack this large is not read; remove files that are not rules or cards', 'RB0007');
        else out.push({ path: relative(dir, full).split(sep).join('/'), text: readFileSync(target, 'utf8') });
      }
    }
  };
  walk(dir, root);
  return out;
}

/**
 * Where the pack `id` that the pack in `dir` needs is, if anywhere: first the folder of that name
 * beside the pack (`content/<id>`), then, the way Node resolves a package, `node_modules/<id>` in
 * the pack's folder and in each folder above it. Only a well-formed pack id ever becomes a path, so
 * no id can name a folder elsewhere.
 *
 * Confinement of installed packs: a package folder found in `P/node_modules/` is used when it is a
 * real folder there, or a link whose real path stays inside `P` (the project that installed it:
 * `npm install ./folder` and workspaces link inside it) or inside the real `P/node_modules` (a
 * node_modules that is itself a link to a shared install). A link leading anywhere else is not
 * followed, and the search goes on above. The pack folder is then read by `readPackFolder`, with
 * its own confinement.
 */
export function dependencyFolder(dir: string, id: string): string | undefined {
  if (!isPackId(id)) return undefined;
  const pack = dir.replace(/[\\/]+$/, '') || '.';
  const beside = join(dirname(pack), id);
  if (isPackFolder(beside)) return beside;
  let at: string;
  try {
    at = realpathSync(pack);
  } catch {
    return undefined;
  }
  for (;;) {
    if (basename(at) !== 'node_modules') {
      const found = installedPack(at, id);
      if (found) return found;
    }
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

/** `project/node_modules/<id>` when it is a pack folder that keeps to the confinement rule above. */
function installedPack(project: string, id: string): string | undefined {
  const modules = join(project, 'node_modules');
  const folder = join(modules, id);
  let real: string;
  try {
    real = realpathSync(folder);
    if (!lstatSync(folder).isSymbolicLink() && !lstatSync(modules).isSymbolicLink()) return isPackFolder(folder) ? folder : undefined;
    if (!inside(realpathSync(project), real) && !inside(realpathSync(modules), real)) return undefined;
  } catch {
    return undefined;
  }
  return isPackFolder(real) ? folder : undefined;
}

function isPackFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory() && statSync(join(folder, 'pack.yaml')).isFile();
  } catch {
    return false;
  }
}

/**
 * The packs a pack extends or depends on, and the packs those need in turn, each found by
 * `dependencyFolder` from the pack that needs it. The schema check reports ids that are not pack ids.
 */
export function dependenciesOf(dir: string, files: SourceFile[]): CompileOptions['dependencies'] {
  const deps: Record<string, SourceFile[]> = Object.create(null);
  const queue: Array<{ id: string; from: string }> = neededPacks(requirementsOf(files.find((f) => f.path === 'pack.yaml')?.text ?? '')).map((r) => ({ id: r.id, from: dir }));
  while (queue.length) {
    const { id, from } = queue.shift()!;
    if (!isPackId(id) || id in deps) continue;
    const folder = dependencyFolder(from, id);
    if (!folder) continue;
    deps[id] = readPackFolder(folder);
    queue.push(...neededPacks(requirementsOf(deps[id].find((f) => f.path === 'pack.yaml')?.text ?? '')).map((r) => ({ id: r.id, from: folder })));
  }
  return deps;
}
