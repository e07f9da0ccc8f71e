import { decisionRandom } from './decision.ts';
import type { Agent } from './index.ts';

/** Picks uniformly among the legal choices: by their number alone, so playout mode shows it none (`index`). */
export function randomAgent(seed: number | string, player: string): Agent {
  const index = (state: Parameters<typeof decisionRandom>[3], count: number) => Math.floor(decisionRandom(seed, 'random', player, state)() * count);
  return {
    kind: 'random',
    choose(state, legal) {
      return legal[index(state, legal.length)];
    },
    index,
  };
}
