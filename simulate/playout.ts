/**
 * One game played to its end by agents, summed up for balance figures: who won, the scores, how
 * long it took, which cards each player held at the end and of what kind they are, and, for a game
 * that did not end, why (a rule past its evaluation budget named apart). Plain JSON, so summaries
 * can be written to files and merged; pure (no Node imports), so a browser worker runs it too.
 */
import { playByAgents, type AgentKind } from '../runtime/agents.ts';
import { cardHolders, standings, type CompiledPack, type GameState } from '../runtime/index.ts';
import { Refusal, type BudgetName } from '../runtime/refusal.ts';
import { table } from '../runtime/table.ts';

export interface GameSummary {
  seed: number;
  players: number;
  /** Choices made. */
  steps: number;
  /** Turns begun (`turn p { … }`); 0 for a game without turns. */
  turns: number;
  /** The game reached its end; otherwise `stuck` says why it stopped. */
  over: boolean;
  stuck?: string;
  /** The evaluation budget (`step`, `list`, …) a rule went past, ending the game: see runtime/budget.ts. */
  budget?: BudgetName;
  standings: Array<{ player: string; score: number; tiebreak: number }>;
  /** The players with the best score and tiebreak (several on a full tie). */
  winners: string[];
  /** Card → the players holding it when the game ended. */
  held: Record<string, string[]>;
  /** Card → its kind (the pack's entity kind: a race, a hero…), for the cards held by someone. */
  kinds: Record<string, string>;
}

export interface PlayoutOptions {
  players: number;
  seed: number;
  /** One kind for every seat, or one per seat. */
  agents: AgentKind | AgentKind[];
  maxSteps: number;
}

export function playGame(pack: CompiledPack, o: PlayoutOptions): GameSummary {
  // Playout mode: a summary reads no log line and no choice's id, only the end and the length. A
  // game the rules left stuck is played again with its choices made by id, as the same seed plays
  // it: its reason names the choice refused, as a replay of it needs (playout mode knows its place).
  const fast = played(pack, o, true);
  const { state, stuck, budget } = fast.stuck !== undefined && !fast.limit ? played(pack, o, false) : fast;
  const rows = standings(state);
  const top = rows[0];
  const winners = rows.filter((r) => r.score === top.score && r.tiebreak === top.tiebreak).map((r) => r.player);
  const held = cardHolders(state);
  const kinds = table<string>();
  for (const [card, holders] of Object.entries(held)) if (holders.length) kinds[card] = pack.kindOf(card) ?? '';
  return {
    seed: o.seed,
    players: o.players,
    steps: state.choices.length,
    turns: state.turn,
    over: state.over,
    ...(stuck === undefined ? {} : { stuck }),
    ...(budget === undefined ? {} : { budget }),
    standings: rows,
    winners,
    held,
    kinds,
  };
}

/** A game played to its end, or why it stopped: at `maxSteps` (`limit`), or stuck. */
function played(pack: CompiledPack, o: PlayoutOptions, playout: boolean): { state: GameState; stuck?: string; budget?: BudgetName; limit: boolean } {
  // Listing the legal choices runs the pack's rules too: past a budget there it throws, and the
  // game ends at the last state reached, as when a chosen action's rules go past one.
  let last: GameState | undefined;
  try {
    const { state, stopped } = playByAgents(pack, { ...o, ...(playout ? { playout } : { inPlace: true }), observe: (st) => void (last = st) });
    return { state, stuck: stopped?.reason, budget: stopped?.budget, limit: stopped?.kind === 'limit' };
  } catch (e) {
    if (!(e instanceof Refusal) || !last) throw e;
    return { state: last, stuck: `the rules were refused at step ${last.choices.length + 1}: ${e.message}${e.where ? ` (${e.where})` : ''}`, budget: e.budget, limit: false };
  }
}
