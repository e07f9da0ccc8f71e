import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadPack } from '../../compiler/load.ts';
import { readPackFolder } from '../../compiler/packFolder.ts';
import { nextRandom } from '../../runtime/rng.ts';

/** Every shipped pack and test pack: their rules feed the tests that hold two readers of rules text together. */
const dirs = [...readdirSync('content').map((d) => join('content', d)), ...readdirSync('test/packs').map((d) => join('test/packs', d))];

/** Every `rules:` text of the packs, and the expressions written as YAML values (roles, scoring, a preference's `choose` entries). */
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
    for (const [k, item] of Object.entries(v)) walk(item, Array.isArray(v) ? key : k, Array.isArray(v) ? inExpressions : inExpressions || key === 'roles' || key === 'prefer');
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
    const r = nextRandom(s);
    s = r.state;
    return r.value;
  };
}
