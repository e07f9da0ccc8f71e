/**
 * Agents: players the computer plays, for bots in games, test sweeps and balance simulations. An
 * agent picks one of the legal choices; it knows no game, only what the runtime offers (the legal
 * choices, `apply`, the pack's scoring). Each agent has its own seeded generator, apart from the
 * game's, so that the same seeds give the same game whoever watches it.
 */
import { apply, legalChoices, standings } from './index.ts';
import { nextRandom, seedState } from './rng.ts';
import type { Choice, GameState } from './types.ts';

export interface Agent {
  readonly kind: AgentKind;
  /** One of `legal` (never empty) for `player`, the player asked. */
  choose(state: GameState, legal: Choice[], player: string): Choice;
}

export type AgentKind = 'random' | 'greedy';
export const AGENT_KINDS: AgentKind[] = ['random', 'greedy'];

export function agent(kind: AgentKind, seed: number | string, player: string): Agent {
  return kind === 'greedy' ? greedyAgent(seed, player) : randomAgent(seed, player);
}

/** Picks uniformly among the legal choices. */
export function randomAgent(seed: number | string, player: string): Agent {
  let rng = seedState(`${seed}:bot:${player}`);
  return {
    kind: 'random',
    choose(_state, legal) {
      const r = nextRandom(rng);
      rng = r.state;
      return legal[Math.floor(r.value * legal.length)];
    },
  };
}

/**
 * Looks ahead to the end of its turn: for each legal choice, plays the rest of the turn at random
 * (a few times) and takes the choice with the best lead over the best other player by the pack's
 * `scoring`, then the best own score (in a cooperative game the lead is always 0). One choice
 * ahead is not enough: most games score at the end of a turn, and a bot that only looks one
 * choice ahead ends its turns as early as it can.
 */
export function greedyAgent(seed: number | string, player: string, rollouts = 2, depth = 40): Agent {
  let rng = seedState(`${seed}:greedy:${player}`);
  const random = () => {
    const r = nextRandom(rng);
    rng = r.state;
    return r.value;
  };
  const value = (st: GameState, who: string): [number, number] => {
    const rows = standings(st);
    const mine = rows.find((r) => r.player === who)?.score ?? 0;
    const others = rows.filter((r) => r.player !== who).map((r) => r.score);
    return [mine - (others.length ? Math.max(...others) : 0), mine];
  };
  /** The rest of `who`'s turn played at random from `st`. */
  const restOfTurn = (st: GameState, who: string): GameState => {
    const turn = st.turn;
    for (let i = 0; i < depth && !st.over && st.prompt && st.turn === turn && st.prompt.player === who; i++) {
      const legal = legalChoices(st, { labels: false }).filter((c) => c.player === who);
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
      let best: Choice[] = [];
      let top: [number, number] = [-Infinity, -Infinity];
      for (const c of legal) {
        const r = apply(state, c);
        if (!r.ok) continue;
        let lead = 0;
        let mine = 0;
        for (let k = 0; k < rollouts; k++) {
          const [l, m] = value(restOfTurn(r.state, who), who);
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
