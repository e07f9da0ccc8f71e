import { apply, standings } from '../index.ts';
import type { Choice, GameState } from '../types.ts';
import { choicesOfAsked, decisionRandom } from './decision.ts';
import type { Agent } from './index.ts';

/**
 * Looks ahead to the end of its turn: for each legal choice, plays the rest of the turn at random
 * (a few times) and takes the choice with the best lead over the best other player by the pack's
 * `scoring`, then the best own score (in a cooperative game the lead is always 0). One choice
 * ahead is not enough: most games score at the end of a turn, and a bot that only looks one
 * choice ahead ends its turns as early as it can.
 */
export function greedyAgent(seed: number | string, player: string, rollouts = 2, depth = 40): Agent {
  const value = (st: GameState, who: string): [number, number] => {
    const rows = standings(st);
    const mine = rows.find((r) => r.player === who)?.score ?? 0;
    const others = rows.filter((r) => r.player !== who).map((r) => r.score);
    return [mine - (others.length ? Math.max(...others) : 0), mine];
  };
  /** The rest of `who`'s turn played at random from `st`. */
  const restOfTurn = (st: GameState, who: string, random: () => number): GameState => {
    const turn = st.turn;
    for (let i = 0; i < depth && !st.over && st.prompt && st.turn === turn && st.prompt.player === who; i++) {
      const legal = choicesOfAsked(st);
      if (!legal.length) break;
      const r = apply(st, legal[Math.floor(random() * legal.length)]);
      if (!r.ok) break;
      st = r.state;
    }
    return st;
  };
  return {
    kind: 'greedy',
    choose(state, legal, who) {
      if (legal.length === 1) return legal[0];
      const random = decisionRandom(seed, 'greedy', player, state);
      let best: Choice[] = [];
      let top: [number, number] = [-Infinity, -Infinity];
      for (const c of legal) {
        const r = apply(state, c);
        if (!r.ok) continue;
        let lead = 0;
        let mine = 0;
        for (let k = 0; k < rollouts; k++) {
          const [l, m] = value(restOfTurn(r.state, who, random), who);
          lead += l / rollouts;
          mine += m / rollouts;
        }
        const cmp = lead - top[0] || mine - top[1];
        if (cmp > 0) (top = [lead, mine]), (best = [c]);
        else if (cmp === 0) best.push(c);
      }
      if (!best.length) best = legal;
      return best[Math.floor(random() * best.length)];
    },
  };
}
