import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadPack } from '../../compiler/load.ts';
import { readPackFolder } from '../../compiler/packFolder.ts';

/** Every shipped pack and test pack: their rules feed the tests that hold two readers of rules text together. */
const dirs = [...readdirSync('content').map((d) => join('content', d)), ...readdirSync('test/packs').map((d) => join('test/packs', d))];

/** Every `rules:` text of the packs, and the expressions written as YAML values (roles, scoring). */
export function shippedTexts(): { rules: string[]; expressions: string[] } {
  const rules: string[] = [];
  const expressions: string[] = [];
  const walk = (v: unknown, key: string | undefined, inExpressions: boolean) => {
    if (typeof v === 'string') {
      if (key === 'rules') rules.push(v);
      else if (inExpressions || key === 'score' || key === 'tiebreak' || key === 'estimate') expressions.push(v);
      return;
    }
    if (!v || typeof v !== 'object') return;
    for (const [k, item] of Object.entries(v)) walk(item, Array.isArray(v) ? key : k, Array.isArray(v) ? inExpressions : key === 'roles' || key === 'prefer');
  };
  for (const dir of dirs) {
    const loaded = loadPack(readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/')), () => {});
    for (const file of [loaded.manifest, ...loaded.files]) if (file) walk(file.data, undefined, false);
  }
  return { rules, expressions };
}

/** A seeded random number in [0, 1), the same sequence for the same seed. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
