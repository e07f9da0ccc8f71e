import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative, dirname, sep } from 'node:path';
import type { SourceFile } from './source.ts';
import type { CompileOptions } from './index.ts';
import { neededPacks, requirementsOf } from './requirements.ts';

/** Node only: the YAML files of a pack folder, with paths relative to it. */
export function readPackFolder(dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(name)) out.push({ path: relative(dir, full).split(sep).join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(dir);
  return out;
}

/** The packs a pack extends or depends on, looked up as folders beside it (`content/<id>`). */
export function dependenciesOf(dir: string, files: SourceFile[]): CompileOptions['dependencies'] {
  const ids = neededPacks(requirementsOf(files.find((f) => f.path === 'pack.yaml')?.text ?? '')).map((r) => r.id);
  const deps: Record<string, SourceFile[]> = {};
  for (const id of ids) {
    const folder = join(dirname(dir.replace(/[\\/]+$/, '')), id);
    if (existsSync(join(folder, 'pack.yaml'))) deps[id] = readPackFolder(folder);
  }
  return deps;
}
