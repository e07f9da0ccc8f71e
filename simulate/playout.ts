/**
 * One game played to its end by agents, summed up for balance figures: who won, the scores, how
 * long it took, and which cards each player held at the end. Pure: no Node imports, so a browser
 * worker could run it too.
 */
import { agent, type Agent, type AgentKind } from '../runtime/agents.ts';
import { cardHolders, legalChoices, newGame, standings, apply, type CompiledPack } from '../runtime/index.ts';

export interface GameSummary {
  seed: number;
  players: number;
  /** Choices made. */
  steps: number;
  /** The game reached its end; otherwise `stuck` says why it stopped. */
  over: boolean;
  stuck?: string;
  standings: Array<{ player: string; score: number; tiebreak: number }>;
  /** The players with the best score and tiebreak (several on a full tie). */
  winners: string[];
  /** Card → the players holding it when the game ended. */
  held: Record<string, string[]>;
}

export interface PlayoutOptions {
  players: number;
  seed: number;
  /** One kind for every seat, or one per seat. */
  agents: AgentKind | AgentKind[];
  maxSteps: number;
}

export function playGame(pack: CompiledPack, o: PlayoutOptions): GameSummary {
  let state = newGame(pack, { players: o.players, seed: o.seed });
  const seats = new Map<string, Agent>(state.players.map((p, i) => [p, agent(Array.isArray(o.agents) ? o.agents[i % o.agents.length] : o.agents, o.seed, p)]));
  let stuck: string | undefined;
  while (!state.over && state.prompt) {
    if (state.choices.length >= o.maxSteps) {
      stuck = `no end after ${o.maxSteps} choices`;
      break;
    }
    const asked = state.prompt.player;
    const legal = legalChoices(state, { labels: false }).filter((c) => c.player === asked);
    if (!legal.length) {
      stuck = `${asked} has no legal choice at step ${state.choices.length}`;
      break;
    }
    const pick = seats.get(asked)!.choose(state, legal, asked);
    const r = apply(state, pick);
    if (!r.ok) {
      stuck = `a listed choice was refused at step ${state.choices.length}: ${pick.id}: ${r.reason}`;
      break;
    }
    state = r.state;
  }
  const rows = standings(state);
  const top = rows[0];
  const winners = rows.filter((r) => r.score === top.score && r.tiebreak === top.tiebreak).map((r) => r.player);
  return { seed: o.seed, players: o.players, steps: state.choices.length, over: state.over, stuck: state.over ? undefined : (stuck ?? 'the game stopped without a prompt'), standings: rows, winners, held: cardHolders(state) };
}
