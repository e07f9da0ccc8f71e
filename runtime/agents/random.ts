import { decisionRandom } from './decision.ts';
import type { Agent } from './index.ts';

/** Picks uniformly among the legal choices. */
export function randomAgent(seed: number | string, player: string): Agent {
  return {
    kind: 'random',
    choose(state, legal) {
      return legal[Math.floor(decisionRandom(seed, 'random', player, state)() * legal.length)];
    },
  };
}
