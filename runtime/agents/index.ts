/**
 * Agents: players the computer plays, and the one loop that plays a game by them. The playground,
 * `rulebook play --bots`, `rulebook simulate` and the test sweep all play through here, so the same
 * pack, seed and bots play the same game everywhere. An agent knows no game, only what the runtime
 * offers (the legal choices, `apply`, `viewFor`'s hidden fields, the pack's scoring). No Node
 * imports: the playground's browser worker runs it too.
 *
 * An agent's pick depends only on the state it is shown, never on the picks it made before: its
 * generator is seeded from the game's seed, the player and the step. A game can then be resumed,
 * branched or taken over from any point (the playground's undo, a human seat turned bot) and the
 * bots still play as they would have from there. (A tree search asked to reuse its tree trades
 * this away, and says so: `mcts:…:reuse`.)
 */
import type { CompiledPack } from '../compiled.ts';
import { cloneState } from '../clone.ts';
import { apply, applyInPlace, attach, newGame, playDriven, playoutApplyChoice } from '../index.ts';
import type { BudgetName } from '../refusal.ts';
import type { Choice, GameState } from '../types.ts';
import { display } from '../values.ts';
import { choicesOfAsked } from './decision.ts';
import { greedyAgent } from './greedy.ts';
import { mctsAgent, type MctsOptions } from './mcts.ts';
import { preferAgent } from './prefer.ts';
import { randomAgent } from './random.ts';

export { choicesOfAsked } from './decision.ts';
export { greedyAgent } from './greedy.ts';
export { mctsAgent, PLAYOUT_CAP, type MctsOptions } from './mcts.ts';
export { preferAgent } from './prefer.ts';
export { randomAgent } from './random.ts';

export interface Agent {
  readonly kind: AgentKind;
  /** One of `legal` (never empty), the choices of `player`, the player asked. */
  choose(state: GameState, legal: Choice[], player: string): Choice;
  /**
   * For an agent whose pick needs nothing of the choices but their number: the place of the one it
   * picks among `count`, the choices of `player` in their listed order, as `choose` would pick it.
   * A game in playout mode then shows it no choice (`playoutChoices`). Driven (`playDriven`), the
   * state and its `prompt` are valid only during the call (one prompt object is reused for the
   * offers of a drive, the state played on in place): an agent that keeps either must copy it.
   */
  index?(state: GameState, count: number, player: string): number;
}

/** A bot's name, as every command and the playground take it: `random`, `greedy`, `mcts:200`, `mcts:200:team`. */
export type AgentKind = 'random' | 'greedy' | 'prefer' | `mcts:${string}`;
/** The bots to offer where one is picked from a list: a search small enough to wait for in a browser. */
export const AGENT_KINDS: AgentKind[] = ['random', 'greedy', 'prefer', 'mcts:20', 'mcts:20:team'];

/** What a bot's name says. */
export type AgentSpec = { kind: 'random' } | { kind: 'greedy' } | { kind: 'prefer' } | ({ kind: 'mcts' } & MctsOptions);

/** Playouts with a pack's estimate stop after this many choices unless the name says `depth=`. */
export const DEFAULT_DEPTH = 30;
const MAX_ITERATIONS = 1_000_000;
const FORMS = '`random`, `greedy`, `prefer` or `mcts:<iterations>` with optional `:team`, `:reuse`, `:depth=<choices>`, `:horizon=turn|learned`, `:policy=greedy|prefer`, `:noise=<percent>`, `:prune=<choices>`, `:prior=<points>`, `:close=<points>`, `:value=estimate|end`, `:ms=<milliseconds>` (e.g. `mcts:200`, `mcts:200:team`)';

/** A bad bot name, with the names there are. */
export class AgentKindError extends Error {
  constructor(
    message: string,
    /**
     * What is wrong, without what to write instead: for a place where no name is written, such as
     * the playground's list of bots.
     */
    readonly reason: string = message,
  ) {
    super(message);
  }
}

/** The one place a bot's name is read. */
export function parseAgentKind(name: string): AgentSpec {
  if (name === 'random' || name === 'greedy' || name === 'prefer') return { kind: name };
  const [head, count, ...flags] = name.split(':');
  const bad = (why: string) => new AgentKindError(`\`${name}\` is not a bot: ${why}; choose ${FORMS}`);
  if (head !== 'mcts') throw bad('unknown name');
  const iterations = whole(count);
  if (iterations === undefined || iterations < 1 || iterations > MAX_ITERATIONS) throw bad(`the iterations must be a whole number from 1 to ${MAX_ITERATIONS.toLocaleString('en')}`);
  const spec: AgentSpec = { kind: 'mcts', iterations, team: false, reuse: false, depth: DEFAULT_DEPTH };
  for (const flag of flags) {
    const at = flag.indexOf('=');
    const [key, value] = at < 0 ? [flag, undefined] : [flag.slice(0, at), flag.slice(at + 1)];
    const n = whole(value);
    const valueOf = (what: string) => bad(`\`${flag}\`: the value of \`${key}\` must be ${what}`);
    if (flag === 'team') spec.team = true;
    else if (flag === 'reuse') spec.reuse = true;
    else if (value === undefined || !MCTS_OPTIONS.has(key)) throw bad(`\`${flag}\` is not an option of mcts`);
    else if (key === 'depth') spec.depth = n ?? throwing(valueOf('a whole number of choices (0 or more)'));
    else if (key === 'ms') spec.ms = n || throwing(valueOf('a whole number of milliseconds from 1'));
    else if (key === 'prune') spec.prune = n || throwing(valueOf('a whole number of choices from 1'));
    else if (key === 'prior') spec.prior = n || throwing(valueOf("a whole number of the preference's points from 1"));
    else if (key === 'noise') spec.noise = n !== undefined && n <= 100 ? n : throwing(valueOf('a whole percentage from 0 to 100'));
    else if (key === 'close') spec.close = n ?? throwing(valueOf("a whole number of the preference's points (0 or more)"));
    else if (key === 'value') spec.value = value === 'estimate' || value === 'end' ? value : throwing(valueOf('`estimate` or `end`'));
    else if (key === 'horizon') spec.horizon = value === 'turn' || value === 'learned' ? value : throwing(valueOf('`turn` or `learned`'));
    else spec.policy = value === 'greedy' || value === 'prefer' ? value : throwing(valueOf('`greedy` or `prefer`'));
  }
  if (spec.value === 'end' && spec.horizon) throw bad('`horizon=` moves a leaf the estimate values, and `value=end` values none by it; drop one of them');
  // `depth=0` is taken with `value=end`: the bench writes a `depth=` into every search's name.
  if (spec.value === 'end' && spec.depth && flags.some((f) => f.startsWith('depth='))) throw bad(`\`depth=${spec.depth}\` cuts a playout for the estimate to value, and \`value=end\` plays every playout to the end; drop \`depth=\``);
  if (spec.noise !== undefined && !spec.policy) throw bad('`noise=` is the share of a greedy or preferred playout\'s choices taken at random, and without `policy=` every choice of a playout is; add `policy=greedy` or `policy=prefer`, or drop `noise=`');
  return spec;
}

/** The options of mcts that take a value (`name=value`). */
const MCTS_OPTIONS = new Set(['depth', 'ms', 'prune', 'prior', 'noise', 'close', 'value', 'horizon', 'policy']);

function throwing(e: Error): never {
  throw e;
}

function whole(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/**
 * What `kind` says for games of `pack`: its name read (`parseAgentKind`), and refused, with why and
 * what to write instead, where the pack lacks what the bot reads (a `prefer` bot with no
 * `scoring: prefer` would pick at random, a greedy playout with no `scoring: estimate` would too).
 * Every lack is named at once, so that one mend of the name is enough. Every seat is checked here
 * (`agent`), and a command line through it before its first game.
 */
export function agentSpecFor(kind: string, pack: CompiledPack): AgentSpec {
  const spec = parseAgentKind(kind);
  const lacks: Array<{ why: string; fix: string }> = [];
  if (spec.kind === 'prefer' && !pack.rules.prefer) lacks.push({ why: "it plays the pack's `scoring: prefer`, which it does not declare, so it would pick at random", fix: 'write `random`, or declare `scoring: prefer` in the pack (docs/language.md)' });
  if (spec.kind === 'mcts' && !pack.rules.prefer) {
    const reading = [spec.prior !== undefined && 'prior=', spec.close !== undefined && 'close=', spec.prune !== undefined && 'prune=', spec.policy === 'prefer' && 'policy=prefer'].filter((f): f is string => !!f);
    if (reading.length) lacks.push({ why: `${reading.map((f) => `\`${f}\``).join(', ')} ${reading.length > 1 ? 'read' : 'reads'} the pack's \`scoring: prefer\`, which it does not declare`, fix: `drop ${reading.length > 1 ? 'them' : 'it'}` });
  }
  if (spec.kind === 'mcts' && !pack.rules.estimate) {
    if (spec.policy === 'greedy') lacks.push({ why: "`policy=greedy` picks a playout's choices by the pack's `scoring: estimate`, which it does not declare, so its playouts would be random", fix: `drop it${pack.rules.prefer ? ", or write `policy=prefer` to play them by the pack's preference" : ''}` });
    if (spec.horizon) lacks.push({ why: `\`horizon=${spec.horizon}\` values a leaf the pack's \`scoring: estimate\` values as at its turn's end, and the pack declares none: every playout goes on to the game's end`, fix: 'drop it' });
  }
  if (!lacks.length) return spec;
  const head = `\`${kind}\` is not a bot for ${pack.name.en ?? pack.id}: `;
  throw new AgentKindError(head + lacks.map((l) => `${l.why}; ${l.fix}`).join('; also, '), head + lacks.map((l) => l.why).join('; also, '));
}

/** Every bot of `kinds` seated for `pack` (`agentSpecFor`), else the first one's refusal: asked before a game, or a worker, starts. */
export function checkBots(kinds: readonly AgentKind[] | undefined, pack: CompiledPack): void {
  for (const kind of kinds ?? []) agentSpecFor(kind, pack);
}

/** The bot a name asks for, seated at `player`, for games of `pack` with `seed`; refused as `agentSpecFor` refuses it. */
export function agent(kind: AgentKind, seed: number | string, player: string, pack: CompiledPack): Agent {
  const spec = agentSpecFor(kind, pack);
  if (spec.kind === 'greedy') return greedyAgent(seed, player);
  if (spec.kind === 'random') return randomAgent(seed, player);
  if (spec.kind === 'prefer') return preferAgent(pack, seed, player);
  return mctsAgent(pack, seed, player, spec, kind);
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
  /**
   * Told of the state it starts from (no choice) and after every choice; may throw to stop the game.
   * In playout mode, where every seat picks by place, the game is driven a stretch at a time, each
   * told once at its end, with no choice: within a stretch the game is no state to show. (Seats
   * that pick by place are told no choice in playout mode.)
   */
  observe?: (state: GameState, choice?: Choice) => void;
  /**
   * The game's state changed choice by choice in place (`applyInPlace`), not copied at every
   * choice: for a caller that keeps no state it is shown but the last (a simulation's game).
   * `start` is copied first, so the caller's state is left as it was.
   */
  inPlace?: boolean;
  /**
   * Playout mode (runtime/index.ts `playoutChoices`), for a caller that reads no record of the game,
   * only its end and its length (a simulation): no log line is written and the choices are recorded
   * blank (''), each changing the state in place (as `inPlace`). A seat whose agent picks by place
   * alone (`index`: random) is shown no choice; the others are shown `choicesOfAsked` as always. The
   * same seeds play the same game as without it, record aside (test/playout-mode.test.ts).
   * A game with a seat whose search keeps its tree (`mcts:…:reuse`) is played in place instead:
   * that search finds where it is by the choices recorded.
   */
  playout?: boolean;
}

export interface AgentGame {
  state: GameState;
  /** Why the game stopped before its end: `limit` at `maxSteps`, `stuck` when the rules left no way on (`budget` when an evaluation budget refused the choice). */
  stopped?: { kind: 'limit' | 'stuck'; reason: string; budget?: BudgetName };
}

function keepsTree(kind: AgentKind): boolean {
  const spec = parseAgentKind(kind);
  return spec.kind === 'mcts' && spec.reuse;
}

/** A game of `pack` played by agents up to its end, or until it has `maxSteps` choices. */
export function playByAgents(pack: CompiledPack, o: AgentGameOptions): AgentGame {
  const kinds = Array.isArray(o.agents) ? o.agents : [o.agents];
  // A search that keeps its tree finds its place by the choices recorded, which playout mode
  // records blank: such a game is played in place instead, the same game with its record.
  const playout = o.playout && !kinds.some(keepsTree);
  const inPlace = o.inPlace || o.playout;
  let state = o.start ? (inPlace ? attach(pack, cloneState(o.start)) : o.start) : newGame(pack, { players: o.players, seed: o.seed });
  const step = playout ? playoutApplyChoice : inPlace ? applyInPlace : apply;
  const seats = new Map<string, Agent>(state.players.map((p, i) => [p, agent(kinds[i % kinds.length], o.seed, p, pack)]));
  // A drive that stops before another seat is put back and its choices made again by stepping
  // (runtime/drivenPlayout.ts): with a seat that reads its choices, every stretch of the others'
  // but the game's last would be made twice, so their choices are stepped one by one (measured on a
  // small game of the test packs, greedy against random: 0.87-0.99x the time driven; on a large one
  // no difference, the greedy seat's time being most). Either way the game is the same.
  const drives = [...seats.values()].every((s) => s.index);
  const noChoice = (player: string): AgentGame => ({ state, stopped: { kind: 'stuck', reason: `${display(pack, player)} (${player}) must act but has no legal choice at step ${state.choices.length + 1}` } });
  o.observe?.(state);
  while (!state.over) {
    if (state.choices.length >= o.maxSteps) return { state, stopped: { kind: 'limit', reason: `no end after ${o.maxSteps} choices` } };
    const asked = state.prompt?.player;
    if (!asked) return { state, stopped: { kind: 'stuck', reason: 'the game is not over, but nobody is to act' } };
    const seat = seats.get(asked)!;
    if (playout && seat.index) {
      // By place (`playDriven`), each seat shown the number of its choices where the rules ask it,
      // up to the limit or a seat that reads its choices. Driven, the game is observed once the
      // drive is over: while it runs, the prompt the rules ask at is not yet written. Stepped, each
      // choice is observed, as the other seats' are.
      let k = -1;
      const played = state;
      const end = playDriven(
        played,
        (n, player) => {
          k = seats.get(player)!.index!(played, n, player);
          return k;
        },
        { asked: true, stopBefore: (player) => played.choices.length >= o.maxSteps || !seats.get(player)!.index, ...(!drives && { stepped: () => o.observe?.(played) }) },
      );
      if (drives && end.made > 0) o.observe?.(played);
      if (!end.ok) return { state, stopped: { kind: 'stuck', reason: `the legal choice at place ${k + 1} of the list was refused at step ${state.choices.length + 1}: ${end.reason}`, ...(end.budget && { budget: end.budget }) } };
      // With no prompt, the loop says that nobody is to act.
      if (end.end === 'none' && state.prompt) return noChoice(state.prompt.player);
      continue;
    }
    const legal = choicesOfAsked(state);
    if (!legal.length) return noChoice(asked);
    const pick = seat.choose(state, legal, asked);
    const r = step(state, pick);
    if (!r.ok) return { state, stopped: { kind: 'stuck', reason: `the legal choice \`${pick.id}\` was refused at step ${state.choices.length + 1}: ${r.reason}`, ...(r.budget && { budget: r.budget }) } };
    state = r.state;
    o.observe?.(state, pick);
  }
  return { state };
}
