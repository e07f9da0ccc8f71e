import type { CompiledPack } from '../compiled.ts';
import { preferences } from '../estimate.ts';
import type { Choice, GameState } from '../types.ts';
import { decisionRandom } from './decision.ts';
import type { Agent } from './index.ts';

/**
 * Plays the pack's `scoring: prefer` as it reads: the legal choice it likes most, ties broken at
 * random. No look-ahead, no copy of the state: as good as the plan the pack's author wrote, and a
 * measure of that plan. For a pack with no preference it would be `random`, and `agent` refuses it.
 */
export function preferAgent(pack: CompiledPack, seed: number | string, player: string): Agent {
  return {
    kind: 'prefer',
    choose(state, legal) {
      return preferred(pack, state, legal, decisionRandom(seed, 'prefer', player, state));
    },
  };
}

/** The choice of `legal` the pack's preference likes most, ties broken by `random`. */
export function preferred(pack: CompiledPack, state: GameState, legal: Choice[], random: () => number): Choice {
  const values = preferences(pack, state, legal);
  if (!values) return legal[Math.floor(random() * legal.length)];
  let pick = legal[0];
  let top = -Infinity;
  let ties = 0;
  for (let i = 0; i < legal.length; i++) {
    const v = values[i];
    if (v > top) (top = v), (pick = legal[i]), (ties = 1);
    else if (v === top && random() * ++ties < 1) pick = legal[i];
  }
  return pick;
}
