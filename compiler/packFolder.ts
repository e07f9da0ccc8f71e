import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, existsSync } from 'node:fs';
import { join, relative, dirname, sep, isAbsolute } from 'node:path';
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
 * `refused`, so the compiler reports it at its path.
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
 * The packs a pack extends or depends on, and the packs those need in turn, looked up as folders
 * beside it (`content/<id>`). Only a well-formed pack id ever becomes a path, so no id can name a
 * folder elsewhere; the schema check reports the ids that are not.
 */
export function dependenciesOf(dir: string, files: SourceFile[]): CompileOptions['dependencies'] {
  const packs = dirname(dir.replace(/[\\/]+$/, ''));
  const deps: Record<string, SourceFile[]> = Object.create(null);
  const queue = neededPacks(requirementsOf(files.find((f) => f.path === 'pack.yaml')?.text ?? '')).map((r) => r.id);
  while (queue.length) {
    const id = queue.shift()!;
    if (!isPackId(id) || id in deps) continue;
    const folder = join(packs, id);
    if (!existsSync(join(folder, 'pack.yaml'))) continue;
    deps[id] = readPackFolder(folder);
    queue.push(...neededPacks(requirementsOf(deps[id].find((f) => f.path === 'pack.yaml')?.text ?? '')).map((r) => r.id));
  }
  return deps;
}
