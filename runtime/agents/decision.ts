import { legalChoices } from '../index.ts';
import { nextRandom, seedState } from '../rng.ts';
import type { Choice, GameState } from '../types.ts';

/**
 * A generator for one decision: the same seed, bot, player and step always draw the same numbers,
 * so a bot's pick depends on the game's seed and the state it is shown, never on its earlier picks.
 */
export function decisionRandom(seed: number | string, bot: string, player: string, state: GameState): () => number {
  let rng = seedState(`${seed}:${bot}:${player}:${state.choices.length}`);
  return () => {
    const r = nextRandom(rng);
    rng = r.state;
    return r.value;
  };
}

/**
 * The choices an agent picks from: those of the player asked. Another player's `anytime` action
 * is that player's to take, and a bot must not take one for a human seat.
 */
export function choicesOfAsked(state: GameState): Choice[] {
  const asked = state.prompt?.player;
  return asked ? legalChoices(state, { labels: false }).filter((c) => c.player === asked) : [];
}
