/**
 * One game played to its end by agents, summed up for balance figures: who won, the scores, how
 * long it took, and which cards each player held at the end. Pure: no Node imports, so a browser
 * worker runs it too.
 */
import { playByAgents, type AgentKind } from '../runtime/agents.ts';
import { cardHolders, standings, type CompiledPack } from '../runtime/index.ts';

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
  const { state, stopped } = playByAgents(pack, o);
  const rows = standings(state);
  const top = rows[0];
  const winners = rows.filter((r) => r.score === top.score && r.tiebreak === top.tiebreak).map((r) => r.player);
  return { seed: o.seed, players: o.players, steps: state.choices.length, over: state.over, stuck: stopped?.reason, standings: rows, winners, held: cardHolders(state) };
}
