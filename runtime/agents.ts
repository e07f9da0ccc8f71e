/**
 * Agents: players the computer plays, and the one loop that plays a game by them. The playground,
 * `rulebook play --bots`, `rulebook simulate` and the test sweep all play through here, so the same
 * pack, seed and bots play the same game everywhere. An agent knows no game, only what the runtime
 * offers (the legal choices, `apply`, the pack's scoring). No Node imports: the playground's browser
 * worker runs it too.
 *
 * An agent's pick depends only on the state it is shown, never on the picks it made before: its
 * generator is seeded from the game's seed, the player and the step. A game can then be resumed,
 * branched or taken over from any point (the playground's undo, a human seat turned bot) and the
 * bots still play as they would have from there.
 */
import { apply, legalChoices, newGame, standings, type CompiledPack } from './index.ts';
import { nextRandom, seedState } from './rng.ts';
import type { Choice, GameState } from './types.ts';
import { display } from './values.ts';

export interface Agent {
  readonly kind: AgentKind;
  /** One of `legal` (never empty), the choices of `player`, the player asked. */
  choose(state: GameState, legal: Choice[], player: string): Choice;
}

export type AgentKind = 'random' | 'greedy';
export const AGENT_KINDS: AgentKind[] = ['random', 'greedy'];

export function agent(kind: AgentKind, seed: number | string, player: string): Agent {
  return kind === 'greedy' ? greedyAgent(seed, player) : randomAgent(seed, player);
}

/** A generator for one decision: the same seed, player and step always draw the same numbers. */
function decisionRandom(seed: number | string, kind: AgentKind, player: string, state: GameState): () => number {
  let rng = seedState(`${seed}:${kind}:${player}:${state.choices.length}`);
  return () => {
    const r = nextRandom(rng);
    rng = r.state;
    return r.value;
  };
}

/** Picks uniformly among the legal choices. */
export function randomAgent(seed: number | string, player: string): Agent {
  return {
    kind: 'random',
    choose(state, legal) {
      return legal[Math.floor(decisionRandom(seed, 'random', player, state)() * legal.length)];
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

/**
 * The choices an agent picks from: those of the player asked. Another player's `anytime` action
 * is that player's to take, and a bot must not take one for a human seat.
 */
export function choicesOfAsked(state: GameState): Choice[] {
  const asked = state.prompt?.player;
  return asked ? legalChoices(state, { labels: false }).filter((c) => c.player === asked) : [];
}

export interface AgentGameOptions {
  players: number;
  seed: number;
  /** One kind for every seat, or one per seat (repeated when there are fewer kinds than seats). */
  agents: AgentKind | AgentKind[];
  /** The game stops, unfinished, after this many choices. */
  maxSteps: number;
  /** The game to play on from (it must be of `pack`); by default a new game of `players` and `seed`. */
  start?: GameState;
  /** Told of the state it starts from (no choice) and after every choice; may throw to stop the game. */
  observe?: (state: GameState, choice?: Choice) => void;
}

export interface AgentGame {
  state: GameState;
  /** Why the game stopped before its end: `limit` at `maxSteps`, `stuck` when the rules left no way on. */
  stopped?: { kind: 'limit' | 'stuck'; reason: string };
}

/** A game of `pack` played by agents up to its end, or until it has `maxSteps` choices. */
export function playByAgents(pack: CompiledPack, o: AgentGameOptions): AgentGame {
  let state = o.start ?? newGame(pack, { players: o.players, seed: o.seed });
  const kinds = Array.isArray(o.agents) ? o.agents : [o.agents];
  const seats = new Map<string, Agent>(state.players.map((p, i) => [p, agent(kinds[i % kinds.length], o.seed, p)]));
  o.observe?.(state);
  while (!state.over) {
    if (state.choices.length >= o.maxSteps) return { state, stopped: { kind: 'limit', reason: `no end after ${o.maxSteps} choices` } };
    const asked = state.prompt?.player;
    if (!asked) return { state, stopped: { kind: 'stuck', reason: 'the game is not over, but nobody is to act' } };
    const legal = choicesOfAsked(state);
    if (!legal.length) return { state, stopped: { kind: 'stuck', reason: `${display(pack, asked)} (${asked}) must act but has no legal choice at step ${state.choices.length + 1}` } };
    const pick = seats.get(asked)!.choose(state, legal, asked);
    const r = apply(state, pick);
    if (!r.ok) return { state, stopped: { kind: 'stuck', reason: `the legal choice \`${pick.id}\` was refused at step ${state.choices.length + 1}: ${r.reason}` } };
    state = r.state;
    o.observe?.(state, pick);
  }
  return { state };
}
