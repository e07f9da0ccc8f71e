/**
 * Small World's core rules written by hand (bench/handwritten/smallworldCore.ts) play the same games
 * as the default pack's rules without races' and powers' abilities (bench/smallworldCorePack.ts):
 * on the same seeds and picks, the same legal choices at every step and the same final scores.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { smallWorldCoreFiles } from '../bench/smallworldCorePack.ts';
import { SmallWorldCore, smallWorldData } from '../bench/handwritten/smallworldCore.ts';
import { RandomPicker } from '../bench/randomPlayout.ts';
import { apply, legalChoices, newGame, standings } from '../runtime/index.ts';

const result = compile(smallWorldCoreFiles());
const pack = result.pack!;

describe('Small World core, pack and by hand', () => {
  it('the core pack compiles, with every race and power of the default pack and no card rules', () => {
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const full = compile(readPackFolder('content/smallworld-wow')).pack!;
    expect(pack.byKind.race).toEqual(full.byKind.race);
    expect(pack.byKind.power).toEqual(full.byKind.power);
    expect(pack.byKind.marker ?? []).toEqual([]);
    expect(smallWorldCoreFiles().find((f) => f.path === 'cards.yaml')?.text).not.toMatch(/rules:/);
  });

  it.each([2, 3, 4, 5])('%i players: the same choices at every step and the same final scores', (players) => {
    const data = smallWorldData(pack);
    for (const seed of [1, 2, 3]) {
      const pick = new RandomPicker(seed);
      let st = newGame(pack, { players, seed });
      const byHand = new SmallWorldCore(data, players, seed);
      while (!st.over) {
        const legal = legalChoices(st, { labels: false }).map((c) => c.id);
        const moves = byHand.legal();
        expect(moves.map((m) => byHand.idOf(m)), `seed ${seed}, step ${st.choices.length}`).toEqual(legal);
        const i = pick.index(legal.length);
        const r = apply(st, legal[i]);
        if (!r.ok) throw new Error(r.reason);
        st = r.state;
        byHand.play(moves[i]);
      }
      expect(byHand.over).toBe(true);
      expect(byHand.choices.map((m) => byHand.idOf(m))).toEqual(st.choices);
      expect(byHand.standings(), `seed ${seed}`).toEqual(standings(st));
      expect(st.choices.length).toBeGreaterThan(50);
    }
  });
});
