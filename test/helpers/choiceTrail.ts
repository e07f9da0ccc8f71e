import { apply, legalChoices, newGame, type CompiledPack, type EngineName } from '../../runtime/index.ts';

/**
 * A two-player game of `p` on `engine`, its picks by a fixed sequence from `seed`: each listing and
 * each state (or refusal) after a pick, as JSON, for comparing the engines line by line.
 */
export function choiceTrail(p: CompiledPack, engine: EngineName, seed: number): string[] {
  const out: string[] = [];
  let st = newGame(p, { players: 2, seed, engine });
  let k = seed;
  while (!st.over) {
    const legal = legalChoices(st);
    out.push(JSON.stringify(legal));
    k = (k * 7 + 3) % 11;
    const r = apply(st, legal[k % legal.length]);
    out.push(JSON.stringify(r.ok ? r.state : r));
    if (!r.ok) break;
    st = r.state;
  }
  return out;
}
