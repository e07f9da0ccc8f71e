import { cloneJson, cloneState, copiedCounts, newTable, sameValue } from './clone.ts';
import type { CompiledPack, Expr } from './compiled.ts';
import { freshBudget, MAX_COMBINATIONS, spend, stepsMark, stepsSince, stepsTaken, withStepBudget } from './budget.ts';
import { ctxFor, emptied, locals, newFrame, readied, resume, runBlock, watching } from './engine.ts';
import { forgetHolders, holdersOf, shareHolders, withFrozenState } from './holders.ts';
import { linkExpression, paramsNeeded, programOf, warmed, type EngineName } from './link.ts';
import { logKept, logLine, withoutLog } from './log.ts';
import { playerId } from './players.ts';
import { FINISH, SUSPEND, type ActionCode, type BlockCode, type Program, type RunCtx, type Signal } from './program.ts';
import { Refusal } from './refusal.ts';
import { seedState } from './rng.ts';
import { beforeFlow, fromSetup, keepSetup, type BeforeFlow } from './setupSnapshot.ts';
import { startingRecords } from './start.ts';
import { metaIfAny, metaOf, type FlowStart, type Listed } from './stateMeta.ts';
import { attachProgram, programFor } from './stateProgram.ts';
import { letsOf, ListingChecks } from './sharedChecks.ts';
import { putBack, settled, undoFor, type Undo } from './undo.ts';
import { table } from './table.ts';
import type { ApplyResult, Choice, Frame, GameState, NewGameOptions, Prompt, Value } from './types.ts';
import { decodeArg, display, encodeArg } from './values.ts';

export type { ApplyResult, Choice, GameState, NewGameOptions, Value, LogEntry } from './types.ts';
export type { CompiledPack } from './compiled.ts';
export { withEngine, type EngineName } from './link.ts';
export { display } from './values.ts';
export { playDriven, type DrivenEnd, type Picker } from './drivenPlayout.ts';


/**
 * A state loaded from JSON made ready to play with `pack`, by the engine given (else the default).
 * A state edited by hand (a record replaced or written outside the rules, or any other field) must
 * be attached again before it is played on: the generated code reads records by entity number from
 * an array kept in step only with the runtime's own writes (`recordsByNumber`), which this drops,
 * and a new game still taken for its kept setup's copy may be put back or run again from it.
 */
export function attach(pack: CompiledPack, state: GameState, engine?: EngineName): GameState {
  forgetHolders(state);
  return attachProgram(programOf(pack, engine), state);
}

/** A new game: players p1…pN, every entity's fields at their starting values, setup run, up to the first decision. */
export function newGame(pack: CompiledPack, options: NewGameOptions): GameState {
  // A warm pack's setup runs on its generated code too: one engine per game keeps the hot paths single.
  const prog = warmed(programOf(pack, options.engine));
  const { players: n } = options;
  if (!Number.isInteger(n) || n < pack.players.min || n > pack.players.max) {
    throw new RangeError(`${pack.name.en ?? pack.id} is played by ${pack.players.min} to ${pack.players.max} players, not ${n}`);
  }
  // A scenario's edits and its watch need the setup run; any other game may start from a kept one.
  const reuse = options.prepare === undefined && !watching();
  const from = reuse ? fromSetup(prog, n, options.seed, options.into) : undefined;
  if (from !== undefined) return from;
  const players = Array.from({ length: n }, (_, i) => playerId(i + 1));
  const st: GameState = {
    pack: `${pack.id}@${pack.version}`,
    seed: seedState(options.seed),
    rng: seedState(options.seed),
    players,
    e: newTable(),
    current: null,
    turn: 0,
    used: table(),
    usedGame: table(),
    prompt: null,
    over: false,
    choices: [],
    log: [],
  };
  startingRecords(pack, players, st.e);
  attachProgram(prog, st);
  const frameOf = (s: { body: { id: number }; slots: number }) => newFrame(s.body.id, 0, locals(s.slots), null, null, null, false);
  const before = withStepBudget(() => setUp(prog, st, options, frameOf, reuse));
  if (reuse) keepSetup(prog, n, options.seed, st, before);
  return st;
}

/** The game set up and its flow run up to the first decision; `keep`: the game as its flow began is noted (`beforeFlow`), when it may be kept. */
function setUp(prog: Program, st: GameState, options: NewGameOptions, frameOf: (s: { body: { id: number }; slots: number }) => Frame, keep: boolean): BeforeFlow | undefined {
  try {
    // Setups that ask a player something suspend like any rule; the edits and the flow then wait
    // for that answer, so they run here only when the setups finish at once.
    const flow = prog.flow ? [frameOf(prog.flow)] : [];
    resume(prog.setups.map(frameOf), prog, st, -1, false);
    if (options.prepare) {
      // The edits would have to wait for an answer that the game's seed and choices cannot hold.
      if (st.prompt) throw new Error(`the pack's setup asks ${display(prog.pack, st.prompt.player)} to choose${st.prompt.text ? ` (${st.prompt.text})` : ''} before the game starts, so the state cannot be edited after it; ask that in the flow instead`);
      options.prepare(st);
      forgetHolders(st);
    } else if (st.over) return undefined;
    else if (st.prompt) {
      // The flow waits for the setups' answer, as the frames after a suspended one do (`resume`).
      for (const f of flow) st.prompt.frames.push(f);
      return undefined;
    }
    const before = keep && prog.flow !== undefined ? beforeFlow(prog, st.players.length, options.seed, st) : undefined;
    const mark = stepsMark();
    resume(flow, prog, st, -1);
    if (before !== undefined) before.steps = stepsSince(mark);
    return before;
  } catch (e) {
    if (e instanceof Refusal) throw new Error(`the game could not be set up: ${e.message}`);
    throw e;
  }
}

/**
 * Every choice open to the player who must act now, each with a stable id and a readable label.
 * Bots that never show labels may pass `{ labels: false }`: the label is then the id.
 */
export function legalChoices(state: GameState, options: { labels?: boolean } = {}): Choice[] {
  const labels = options.labels ?? true;
  const l = withStepBudget(() => {
    const out = withFrozenState(() => listChoices(state, labels));
    counted(state);
    return out;
  });
  metaOf(state).listed = l;
  return l.choices!;
}

const NO_ARGS: Value[] = [];
/** A `skip`'s arguments, in a playout's listing's run. */
const SKIP: Value[][] = [NO_ARGS];
// Frozen: a write to one would throw, not reach every playout's listing.
const NO_IDS = Object.freeze([]) as unknown as string[];
const NO_CODES = Object.freeze([]) as unknown as Array<ActionCode | null>;
const NO_ARGS_LISTS = Object.freeze([]) as unknown as Value[][];

/**
 * A listing under way: the choices handed to the caller, and what `apply` keeps of them (`Listed`).
 * A playout's listing (`playoutChoices`) makes no choice: `choices` is null, and it keeps runs.
 */
type Listing = Listed & { choices: Choice[] | null };

function listed(l: Listing, choice: Choice, code: ActionCode | null, args: Value[]): void {
  l.choices!.push(choice);
  l.ids.push(choice.id);
  l.players.push(choice.player);
  l.codes.push(code);
  l.args.push(args);
}

/** A playout's listing's next run, of `values` or `args`, unless it holds no choice. */
function run(l: Listing, player: string, code: ActionCode | null, values: Value[] | null, args: Value[][] | null): void {
  const n = values !== null ? values.length : args!.length;
  if (n === 0) return;
  const runs = l.runs!;
  runs.push({ player, code, values, args, end: listedCount(l) + n });
}

/** How many choices a listing holds so far. */
function listedCount(l: Listed): number {
  const runs = l.runs;
  if (runs === null) return l.players.length;
  return runs.length === 0 ? 0 : runs[runs.length - 1].end;
}

/** A playout's listing, empty. */
function blindListing(): Listing {
  return { choices: null, ids: NO_IDS, players: NO_IDS, codes: NO_CODES, args: NO_ARGS_LISTS, standingFrom: 0, runs: [] };
}

/** `blind`: a playout's listing, of no choice, id or label; `asked`: only the choices of the player asked. */
function listChoices(state: GameState, labels: boolean, blind = false, asked = false): Listing {
  const prog = programFor(state);
  const pack = prog.pack;
  const p = state.prompt;
  // A playout's listing fills only its runs: the lists of choices it leaves empty are one list, never written.
  const l: Listing = blind ? blindListing() : { choices: [], ids: [], players: [], codes: [], args: [], standingFrom: 0, runs: null };
  if (!p || state.over) return l;
  const shared = new ListingChecks();
  const offer = p.kind === 'choose' ? NO_ACTIONS : offered(prog, state);
  const stand = standing(prog, state);
  if (p.kind === 'choose') {
    if (blind) run(l, p.player, null, p.options ?? NO_ARGS, null);
    else for (const o of p.options ?? []) listed(l, { id: `choose ${encodeArg(o)}`, player: p.player, action: 'choose', args: [o], label: `${p.text ? `${p.text}: ` : ''}${display(pack, o)}` }, null, NO_ARGS);
    if (p.optional) {
      if (blind) run(l, p.player, null, null, SKIP);
      else listed(l, { id: 'skip', player: p.player, action: 'skip', args: [], label: p.text ? `${p.text}: none` : 'Skip' }, null, NO_ARGS);
    }
  } else {
    // The last action listed keeps no answers for another to take.
    for (let i = 0; i < offer.length; i++) actionChoices(prog, state, offer[i], p.player, p.player, labels, l, shared, i + 1 < offer.length || stand.length > 0);
  }
  l.standingFrom = listedCount(l);
  for (let i = 0; i < stand.length; i++) {
    const [a, actor] = stand[i];
    if (!asked || actor === p.player) actionChoices(prog, state, a, actor, p.player, labels, l, shared, i + 1 < stand.length);
  }
  return l;
}

const NO_ACTIONS: readonly ActionCode[] = [];

/**
 * The choices of action `a` open to `actor` (the player asked, or one taking an `anytime` action at
 * their offer). `combinations` ran every leading check on each full candidate, as `pre` would.
 */
function actionChoices(prog: Program, state: GameState, a: ActionCode, actor: string, asked: string, labels: boolean, l: Listing, shared: ListingChecks, keep: boolean): void {
  const c = actionCtx(prog, state, a, actor, NO_ARGS);
  // An action of one parameter that keeps no answers and takes none has its values found in one call.
  const values = oneCall && !keep && a.params.length === 1 && shared.none() ? valuesOpen(a, c, state, actor, null, false) : null;
  const found = values === null ? combinations(a, c, actor, shared, keep) : null;
  // Spent, its parameters' domains were still asked: they count against the budget as they did.
  if (found !== null && limitReason(a, state, actor) !== null) return;
  if (l.choices === null) {
    run(l, actor, a, values, found);
    return;
  }
  const by = actor === asked ? undefined : actor;
  const n = values !== null ? values.length : found!.length;
  for (let i = 0; i < n; i++) {
    const args = values !== null ? [values[i]] : found![i];
    const id = choiceId(a, args, by);
    // A label may read the leading checks' `let`s, which the next candidate's checks overwrote.
    if (labels) a.pre(withArgs(c, args), false);
    listed(l, { id, player: actor, action: a.name, args: args.slice(), label: labels ? labelOf(a, c, args, prog.pack) : id }, a, args);
  }
}

/** Applies a choice by id. An illegal choice is refused with the rule's reason, and the state is left as it was. */
export function apply(state: GameState, choice: string | Choice, options: { player?: string } = {}): ApplyResult {
  return withStepBudget(() => {
    const r = applyChoice(state, choice, options, false);
    counted(state);
    return r;
  });
}

/**
 * `apply`, changing `state` itself instead of making the next state: for a caller who holds the
 * state alone and drops it at the next choice (a random playout, a search's rollout), which then
 * copies nothing but the records the choice writes. The state given back is `state`. An illegal
 * choice is refused with the same reason, and the state is put back as it was (`undo.ts`). States
 * that share records with it (those it was copied from, or made from it) are never changed.
 */
export function applyInPlace(state: GameState, choice: string | Choice, options: { player?: string } = {}): ApplyResult {
  return withStepBudget(() => {
    const r = applyChoice(state, choice, options, true);
    counted(state);
    return r;
  });
}

/**
 * Playout mode, for a game whose record nobody reads (a random playout, a simulation's game, a
 * search's rollout); internal: agents and simulations play through it (docs/architecture.md).
 * `playoutChoices` lists the choices open now without making them (no id, no label) and says how
 * many there are, in `legalChoices`' order (`asked`: only the player asked's, as `choicesOfAsked`);
 * `playoutApply` applies the `k`-th of them to the state itself, as `applyInPlace` applies that
 * choice, but writes no log line and records the choice as a blank (''). Such a game is still its
 * seed and its picks: the same picks by `legalChoices` and `apply` end in the same state but for
 * the log and the choices' ids (test/playout-mode.test.ts).
 */
export function playoutChoices(state: GameState, asked = false): number {
  const l = withStepBudget(() => {
    const out = withFrozenState(() => listChoices(state, false, true, asked));
    counted(state);
    return out;
  });
  metaOf(state).listed = l;
  return listedCount(l);
}

/** The `k`-th choice `playoutChoices` listed for `state`, applied to it (see there). */
export function playoutApply(state: GameState, k: number): ApplyResult {
  return withStepBudget(() =>
    withoutLog(() => {
      const r = applyMove(state, true, (prog, p) => pickedMove(prog, state, p, k));
      counted(state);
      return r;
    }),
  );
}

/**
 * A choice picked among `legalChoices`' by a player who reads them (a search, a greedy bot) in a
 * game in playout mode, applied as `playoutApply` applies one: in place, no log line, recorded blank.
 */
export function playoutApplyChoice(state: GameState, choice: Choice): ApplyResult {
  return withStepBudget(() =>
    withoutLog(() => {
      const r = applyChoice(state, choice, {}, true, true);
      counted(state);
      return r;
    }),
  );
}

/**
 * The move of a playout's `k`-th listed choice: what `apply` makes of that choice's id
 * (`listedMove`, else `parsedMove`), without making the id where the listing alone says it.
 */
function pickedMove(prog: Program, state: GameState, p: Prompt, k: number): Move | { reason: string } {
  const l = metaIfAny(state)?.listed;
  const runs = l?.runs;
  // A listing that made choices keeps no runs; a playout's does.
  if (!l || !runs || !(k >= 0 && k < listedCount(l))) return { reason: `no choice ${k} was listed for this state by playoutChoices` };
  let r = 0;
  while (runs[r].end <= k) r++;
  const at = runs[r];
  const a = at.code;
  const player = at.player;
  const i = k - (r === 0 ? 0 : runs[r - 1].end);
  const args = at.values !== null ? [at.values[i]] : at.args![i];
  const key = a ? actionKey(a) : args.length ? 'choose' : 'skip';
  let plain = true;
  for (let i = 0; i < args.length; i++) if (!readsBack(args[i])) plain = false;
  if (k < l.standingFrom) {
    for (let j = r + 1; j < runs.length; j++) if (runs[j].end > l.standingFrom && runs[j].player === player && actionKey(runs[j].code!) === key) plain = false;
  }
  if (plain && a) return { a, anytime: k >= l.standingFrom, player, args, value: null, recorded: '', checked: true };
  if (plain) return { a: undefined, anytime: false, player, args: NO_ARGS, value: args.length ? args[0] : null, recorded: '', checked: true };
  const id = a ? choiceId(a, args, player === p.player ? undefined : player) : args.length ? `choose ${encodeArg(args[0])}` : 'skip';
  const move = parsedMove(prog, state, p, id, id, {});
  if ('reason' in move) return move;
  // Listed for this player, so checked, as `apply` finds it (`wasListed`).
  move.checked = true;
  move.recorded = '';
  return move;
}

/** The steps a listing or a choice took, counted by a program warming (`warmed`): what its rules do per call. */
function counted(state: GameState): void {
  const w = metaIfAny(state)?.prog?.warming;
  if (w !== undefined) w.steps += stepsTaken();
}

/**
 * A choice made sense of: a pick at a `choose` (`a` undefined), or action `a` taken by `player`
 * with `args`; `recorded` is the id the game's choices keep, `checked` whether listing the state's
 * choices already checked its parameters and leading requires.
 */
interface Move {
  a: ActionCode | undefined;
  anytime: boolean;
  player: string;
  args: Value[];
  value: Value;
  recorded: string;
  checked: boolean;
  /** Its value found by its action's `candidates` on this very state (`playoutApplyListed`): its `drivenBody` runs, as `drivenPick`'s. */
  driven?: true;
}

/** `blank`: the choice is recorded as a playout records it (''). */
function applyChoice(state: GameState, choice: string | Choice, options: { player?: string }, inPlace: boolean, blank = false): ApplyResult {
  const id = typeof choice === 'string' ? choice : choice.id;
  return applyMove(state, inPlace, (prog, p) => {
    const move = listedMove(state, id, choice, options) ?? parsedMove(prog, state, p, id, choice, options);
    if (blank && !('reason' in move)) move.recorded = '';
    return move;
  });
}

/** The move `moveOf` makes of the choice (or why there is none) made in `state`, itself when `inPlace`. */
function applyMove(state: GameState, inPlace: boolean, moveOf: (prog: Program, p: Prompt) => Move | { reason: string }): ApplyResult {
  const prog = programFor(state);
  const p = state.prompt;
  if (!p || state.over) return { ok: false, reason: 'the game is over', state };
  /** The action taken, whose rule a refusal outside any statement names. */
  let taken: ActionCode | undefined;
  let undo: Undo | undefined;
  try {
    const move = moveOf(prog, p);
    if ('reason' in move) return { ok: false, ...move, state };
    taken = move.a;
    if (move.a && !move.checked) {
      // What listing would have checked, counted apart from the choice's own steps as a listing's
      // are (see `parsedMove`).
      const refused = withStepBudget(() => withFrozenState(() => checkArgs(prog, state, move.a!, move.player, move.args)));
      if (refused) return { ok: false, ...refused, state };
    }
    let next: GameState;
    if (inPlace) {
      undo = undoFor(state);
      next = state;
    } else {
      next = cloneState(state);
      attachProgram(prog, next);
      shareHolders(state, next);
    }
    next.choices.push(move.recorded);
    next.prompt = null;
    if (taken) takeAction(prog, next, p, move, inPlace);
    else pick(prog, next, p, move);
    if (undo) settled(state);
    undo = undefined;
    return { ok: true, state: next };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.message, rule: e.where ?? taken?.origin.where, ...(e.budget && { budget: e.budget }), state };
    throw e;
  } finally {
    if (undo) putBack(state, undo);
  }
}

/**
 * The move of an action's choice as listed for this state (a state is never changed once made:
 * `apply` copies it): its action and player are known, and its parameters and leading requires
 * were checked by listing; the action's body still runs every require. Undefined when the choice
 * was not listed so, or when listing alone cannot say how the id reads (the player named apart, an
 * `anytime` action of the same name open to the player): the id is then read as it is written.
 */
function listedMove(state: GameState, id: string, choice: string | Choice, options: { player?: string }): Move | undefined {
  const l = metaIfAny(state)?.listed;
  if (!l) return undefined;
  const k = l.ids.indexOf(id);
  const a = k < 0 ? null : l.codes[k];
  if (!a) return undefined;
  const player = l.players[k];
  if ((options.player !== undefined && options.player !== player) || (typeof choice !== 'string' && choice.player !== player)) return undefined;
  if (k < l.standingFrom) {
    for (let j = l.standingFrom; j < l.ids.length; j++) if (l.players[j] === player && actionKey(l.codes[j]!) === actionKey(a)) return undefined;
  }
  const args = l.args[k];
  for (let i = 0; i < args.length; i++) if (!readsBack(args[i])) return undefined;
  return { a, anytime: k >= l.standingFrom, player, args, value: null, recorded: id, checked: true };
}

/**
 * Whether a listed argument is what its word in the id reads back as (`decodeArg`), so the listed
 * value may stand for the word: a text (`encodeArg` quotes those that would read as another value),
 * a number but -0, a boolean; not none, and a list is read back from its word.
 */
function readsBack(v: Value): boolean {
  if (typeof v === 'string') return true;
  if (typeof v === 'number') return !Object.is(v, -0);
  return typeof v === 'boolean';
}

/**
 * `readMove` under a budget of its own, as a listing's: reading an id finds the holders of the cards
 * whose actions come with the offer and of the `anytime` ones, which a choice listed first (as the
 * playground and agents take it) found in its listing, so a choice counts the same steps listed first
 * or not (as `replay` takes it), and a replay refuses no choice the live game took.
 */
function parsedMove(prog: Program, state: GameState, p: Prompt, id: string, choice: string | Choice, options: { player?: string }): Move | { reason: string } {
  return withStepBudget(() => readMove(prog, state, p, id, choice, options));
}

/** The move an id names, read word by word, or why it names none. */
function readMove(prog: Program, state: GameState, p: Prompt, id: string, choice: string | Choice, options: { player?: string }): Move | { reason: string } {
  const pack = prog.pack;
  const plain = PLAIN_ID.test(id);
  const parts = plain ? id.split(' ') : splitId(id);
  // One choice has one id: spaces added around or between its words make another, which no list offers.
  if (!plain && parts.join(' ') !== id) return { reason: `\`${id.slice(0, 80)}\` is not a choice as listed (words apart by one space)` };
  const [head = '', ...rawArgs] = parts;
  const [key, by] = head.split('@');
  const actor = by ?? options.player ?? (typeof choice === 'string' ? p.player : choice.player);
  const anytime = standing(prog, state).find(([x, q]) => q === actor && actionKey(x) === key)?.[0];
  if (actor !== p.player && !anytime) return { reason: `${display(pack, p.player)} must act now, not ${display(pack, actor)}` };
  // `@player` names who acts at another player's offer; the player asked is listed without it.
  if (by !== undefined && by === p.player) return { reason: `${display(pack, p.player)} is asked: their choice is \`${[key, ...rawArgs].join(' ').slice(0, 80)}\`, without \`@${by}\`` };
  const recorded = anytime && actor !== p.player ? [`${key}@${actor}`, ...rawArgs].join(' ') : id;
  if (p.kind === 'choose' && !anytime) {
    let value: Value;
    if (id === 'skip') {
      if (!p.optional) return { reason: 'this choice cannot be skipped' };
      value = null;
    } else {
      if (!id.startsWith('choose ')) return { reason: `${display(pack, p.player)} must choose${p.text ? ` (${p.text})` : ''}, not \`${id}\`` };
      value = decodeArg(id.slice(7));
      if (!(p.options ?? []).some((o) => sameValue(o, value))) return { reason: `${display(pack, value)} is not one of the options${p.text ? ` for “${p.text}”` : ''}` };
    }
    return { a: undefined, anytime: false, player: p.player, args: [], value, recorded, checked: true };
  }
  const a = anytime ?? offered(prog, state).find((x) => actionKey(x) === key);
  if (!a) {
    const known = prog.actions[key.split('.').pop()!];
    return { reason: known ? `\`${key}\` is not open to ${display(pack, p.player)} now` : `there is no action \`${key}\`` };
  }
  const args = rawArgs.map(decodeArg);
  if (args.length !== a.params.length) return { reason: `\`${a.name}\` takes ${a.params.length} choice(s): ${a.params.map((x) => x.name).join(', ')}` };
  const player = anytime ? actor : p.player;
  return { a, anytime: anytime !== undefined, player, args, value: null, recorded, checked: wasListed(state, player, id) };
}

/** Whether `id` was listed for `player` in this state: its parameters and leading requires were checked then. */
function wasListed(state: GameState, player: string, id: string): boolean {
  const l = metaIfAny(state)?.listed;
  if (!l) return false;
  for (let i = 0; i < l.ids.length; i++) if (l.ids[i] === id && l.players[i] === player) return true;
  return false;
}

/** A pick at a `choose` (`prompt`, the one `next` was made from): the rule that asked goes on with it. */
function pick(prog: Program, next: GameState, prompt: Prompt, move: Move): void {
  const step = next.choices.length - 1;
  const { value } = move;
  if (logKept()) logLine(next, step, `${display(prog.pack, prompt.player)} chose ${value === null ? 'nothing' : display(prog.pack, value)}${prompt.text ? ` (${prompt.text})` : ''}`, prompt.rule, prompt.player);
  const asked = prompt.frames[0];
  const env = asked.env.slice();
  env[prompt.slot!] = value;
  const frames = prompt.frames.slice();
  frames[0] = { ...asked, env };
  resume(frames, prog, next, step);
}

/** An action taken at `prompt` (the one `next` was made from); `inPlace`: the tables of uses are `next`'s as it was, not copies. */
function takeAction(prog: Program, next: GameState, prompt: Prompt, move: Move, inPlace: boolean): void {
  // An `anytime` action interrupts the offer or the choice, which is asked again once the action is over.
  const after = move.anytime ? [newFrame(-1, 0, [], null, null, null, false, undefined, undefined, prompt)] : prompt.frames;
  const sig = runBlock(move.driven ? move.a!.drivenBody : move.a!.body, 0, actionBegun(prog, next, move.a!, move.player, move.args, inPlace));
  if (sig === SUSPEND) {
    const waiting = next.prompt!.frames;
    for (let i = 0; i < after.length; i++) waiting.push(after[i]);
  } else if (sig === FINISH) next.over = true;
  else resume(after, prog, next, next.choices.length - 1);
}

/** The context of action `a` about to run in `next`, taken by `player` with `args`, its use counted and its log line written. */
function actionBegun(prog: Program, next: GameState, a: ActionCode, player: string, args: Value[], inPlace: boolean): RunCtx {
  const c = actionCtx(prog, next, a, player, args, next.choices.length - 1);
  if (a.limit) countUse(a, next, player, inPlace);
  if (logKept()) logLine(next, c.step, `${display(prog.pack, player)}: ${labelOf(a, c, args, prog.pack)}`, a.origin.where, player);
  return c;
}

/** A use of limited action `a` by `player` counted in `next` (`inPlace`: its tables of uses as they were, not copies). */
function countUse(a: ActionCode, next: GameState, player: string, inPlace: boolean): void {
  const usage = usageKey(a, player);
  const per = a.limit!.per === 'turn' ? 'used' : 'usedGame';
  const uses = inPlace ? (next[per] = copiedCounts(next[per]) as Record<string, number>) : next[per];
  uses[usage] = (uses[usage] ?? 0) + 1;
}

/**
 * A driven prompt's listing (`drivenListing`): an offer of one action of the game (no card's) of one
 * parameter, which `listChoices` lists by its values alone (`valuesOpen`), is kept as that action,
 * its player and its values (`a` set), and made a state's listing only should the drive stop there
 * (`keepListing`); any other prompt's is the state's listing, as `playoutChoices` makes it.
 */
export interface DrivenListing {
  a: ActionCode | null;
  player: string;
  values: Value[];
  /** The context `drivenPick` last made a choice of such an action in, free again since its body ended (null: none free). */
  spare: RunCtx | null;
}

/** A driven prompt's listing to fill, holding none yet. */
export function drivenListingOf(): DrivenListing {
  return { a: null, player: '', values: NO_ARGS, spare: null };
}

/**
 * Internal, for a driven playout (`drivenPlayout.ts`): the prompt just asked in `state` listed as
 * `playoutChoices` lists it (`asked`: only the asked player's choices), under a choice's budget of
 * its own, into `into`; how many choices it holds. The steps before it were the last choice's, and
 * those after it are the next choice's, each with a budget of its own.
 */
export function drivenListing(state: GameState, asked: boolean, into: DrivenListing, ran: Program): number {
  // The program of the rule that asked is the state's while it warms no more (`programFor`): a drive began with it, and nothing else changes it.
  const warm = ran.warming === undefined;
  if (!warm) counted(state);
  freshBudget();
  const n = listedInto(state, warm ? ran : programFor(state), asked, into);
  if (!warm) counted(state);
  freshBudget();
  return n;
}

/**
 * Internal, for a driven playout: `playoutChoices` of the prompt a drive begins at, listed as
 * `drivenListing` lists those it meets, into `into`, to be made by `playoutApplyListed`. Should the
 * drive not make it, `keepListing` makes it the state's listing, as `playoutChoices` leaves it.
 * Only for a `drivable` state: it lists no `anytime` action, as a pack with one is never driven.
 */
export function playoutChoicesInto(state: GameState, asked: boolean, into: DrivenListing): number {
  return withStepBudget(() => {
    const n = listedInto(state, programFor(state), asked, into);
    counted(state);
    return n;
  });
}

/** Internal: `playoutApply` of the `k`-th choice `playoutChoicesInto` listed into `into`. */
export function playoutApplyListed(state: GameState, k: number, into: DrivenListing): ApplyResult {
  return withStepBudget(() =>
    withoutLog(() => {
      const r = applyMove(state, true, (prog, p) => {
        if (!pickedValue(into, k)) {
          keepListing(state, into);
          return pickedMove(prog, state, p, k);
        }
        return { a: into.a!, anytime: false, player: into.player, args: [into.values[k]], value: null, recorded: '', checked: true, driven: true };
      });
      counted(state);
      return r;
    }),
  );
}

/**
 * Internal, for a driven playout: how `state` may run its flow again from its start
 * (`playoutFromStart`), or undefined. A new game whose records are its kept setup's copy's, nothing
 * written since (`StateMeta.setup`), and whose flow wrote nothing before it suspended (`FlowStart`),
 * is where its flow began but for the current player and the turn: run again from its start, the
 * flow meets the first decision with that state (its tables of uses are replaced or left alone,
 * never written, before a choice). A program still warming counts the steps of each choice
 * (`counted`), which the flow's before its first decision are not.
 */
export function flowStartOf(state: GameState): FlowStart | undefined {
  const setup = metaIfAny(state)?.setup;
  const start = setup?.start;
  if (start === undefined || programFor(state).warming !== undefined) return undefined;
  // The flow run again sets the current player and the turn: a state whose own were edited by hand
  // (and not attached again, as it should be) keeps the edit by being stepped.
  const kept = setup!.st as GameState;
  return state.turn === kept.turn && state.current === kept.current ? start : undefined;
}

/**
 * Internal, for a driven playout: `state`, a new game that may run its flow again (`flowStartOf`),
 * put back where its flow began and its flow run from its start, in place, as `playoutApply` makes a
 * choice: no log line, and put back as it was should the rules refuse (`undo.ts`). Its flow runs
 * under a drive (`drivenPlayout.ts`), which makes the choices it meets where they are asked: its
 * first decision is met as any other of the drive, not listed outside it and its frames resumed.
 */
export function playoutFromStart(state: GameState, start: FlowStart): ApplyResult {
  return withStepBudget(() =>
    withoutLog(() => {
      const prog = programFor(state);
      let undo: Undo | undefined = undoFor(state);
      try {
        state.current = start.current;
        state.turn = start.turn;
        state.prompt = null;
        // As `setUp` resumes the flow's frame: from its top, the step before the first choice.
        const flow = prog.flow!;
        if (runBlock(flow.body, 0, ctxFor(state, prog, flow.slots, null, null, null, -1)) !== SUSPEND) {
          state.over = true;
          state.prompt = null;
        }
        settled(state);
        undo = undefined;
        return { ok: true, state };
      } catch (e) {
        if (e instanceof Refusal) return { ok: false, reason: e.message, ...(e.where !== undefined && { rule: e.where }), ...(e.budget && { budget: e.budget }), state };
        throw e;
      } finally {
        if (undo) putBack(state, undo);
      }
    }),
  );
}

/**
 * Whether the `k`-th choice of a driven prompt's listing is its action's, with its `k`-th value the
 * argument `pickedMove` would make of it (a value that reads back as itself): the move is then that
 * action, taken by the player listed with that value, and no listing is made to find it.
 */
function pickedValue(into: DrivenListing, k: number): boolean {
  return into.a !== null && k >= 0 && k < into.values.length && readsBack(into.values[k]);
}

/** A prompt of `state` listed into `into` under the budget running (see `drivenListing`); how many choices it holds. */
function listedInto(state: GameState, prog: Program, asked: boolean, into: DrivenListing): number {
  const p = state.prompt!;
  // A driven pack has no `anytime` action (`drivable`): an offer lists the actions it offers alone.
  const o = p.kind === 'offer' && oneCall ? offerOf(prog, state) : null;
  const a = o !== null ? o.one : null;
  let n: number;
  if (a !== null) {
    // What `actionChoices` does for the one action listed, keeping nothing for another.
    const c = listingCtx(prog, state, o!, p.player);
    into.values = withFrozenState(offeredValues, o!, c, state, p.player);
    into.a = a;
    into.player = p.player;
    n = into.values.length;
  } else {
    into.a = null;
    // Its arguments passed through, not a closure's: a closure here made every call allocate a
    // context for the variables it reads, the one-action listings too.
    const l = withFrozenState(listChoices, state, false, true, asked);
    metaOf(state).listed = l;
    n = listedCount(l);
  }
  return n;
}

/** The context the one action of offer `o` is listed in at a driven offer to `player`: `o`'s own, made ready (`withArgs` empties its locals). */
function listingCtx(prog: Program, state: GameState, o: Offer, player: string): RunCtx {
  const c = o.ctx;
  if (c === null) return (o.ctx = actionCtx(prog, state, o.one!, player, NO_ARGS));
  // Written only when another game's: the context outlives games, and a new game is young to V8's
  // collector, so each write of it is a call of the write barrier's, at every listing.
  if (c.st !== state) c.st = state;
  c.me = player;
  c.step = state.choices.length;
  return c;
}

/** `into`, a driven prompt's listing kept by its action and values, made the state's listing, as `listChoices` lists an offer of that action alone. */
export function keepListing(state: GameState, into: DrivenListing): void {
  if (into.a === null) return;
  const l = blindListing();
  run(l, into.player, into.a, into.values, null);
  l.standingFrom = listedCount(l);
  metaOf(state).listed = l;
  into.a = null;
}

/**
 * Internal: whether a game of `state`'s pack may be driven: not when it has an `anytime` action,
 * whose choice is asked again once it is taken, from a frame that a driven prompt never writes.
 */
export function drivable(state: GameState): boolean {
  return programFor(state).anytime.length === 0;
}

/**
 * Internal: the `k`-th choice `drivenListing` listed, made where its prompt was asked, in the
 * context `c` of the rule that asked (`body` and `slot`: a `choose`'s rest and variable), as
 * `playoutApply` makes it: recorded blank, its action's body run; the signal the rule goes on with.
 */
export function drivenPick(state: GameState, k: number, c: RunCtx, body: BlockCode | null, slot: number, listing: DrivenListing): Signal {
  if (!pickedValue(listing, k)) return pickedListed(state, k, c, body, slot, listing);
  // Begun as `actionBegun` begins that move, with no list of arguments made: its action holds no
  // card's rule, its value goes straight into its locals, and a drive writes no log line (it runs
  // inside `playoutApplyListed`). Through `actionBegun`, a small game's driven choice took 4-5%
  // longer (the smallest game of the test packs, interleaved A/B under load).
  const a = listing.a!;
  const player = listing.player;
  // Stored at its end, not pushed: a new game's list of choices is empty (of small integers to V8)
  // until this first store, and V8 inlined no `push` that may change that, calling its builtin at
  // every driven choice; a store at the end it makes in place, growing the list when full.
  const made = state.choices;
  made[made.length] = '';
  state.prompt = null;
  listing.a = null;
  const ac = pickCtx(listing, state, c.prog, a.slots, player);
  ac.env[0] = listing.values[k];
  if (a.limit) countUse(a, state, player, true);
  const sig = runBlock(a.drivenBody, 0, ac);
  listing.spare = ac;
  return sig;
}

/**
 * `drivenPick` of a choice that is not its listing's action's value: read from the listing made the
 * state's, as `playoutApply` reads it. A function of its own, so that the common pick is small enough
 * for V8 to inline it with the listing and the picker where its prompt is asked.
 */
function pickedListed(state: GameState, k: number, c: RunCtx, body: BlockCode | null, slot: number, listing: DrivenListing): Signal {
  const prog = c.prog;
  keepListing(state, listing);
  const move = pickedMove(prog, state, state.prompt!, k);
  if ('reason' in move) throw new Refusal(move.reason);
  metaOf(state).listed = undefined;
  state.choices.push(move.recorded);
  state.prompt = null;
  if (move.a === undefined) {
    c.env[slot] = move.value;
    return runBlock(body!, 0, c);
  }
  return runBlock(move.a.body, 0, actionBegun(prog, state, move.a, move.player, move.args, true));
}

/**
 * The context a driven choice of an action of `slots` locals is made in, as `ctxFor` makes it: the
 * one the drive's last such choice was made in, once its body has ended, rather than one made at
 * each move. Its body's frames copy its locals (`frameOf`), and a drive ends at the first suspension,
 * so nothing keeps it past its body; while a body runs, it is taken (`spare` null), and a choice
 * driven inside that body gets one of its own.
 */
function pickCtx(listing: DrivenListing, state: GameState, prog: Program, slots: number, player: string): RunCtx {
  const c = listing.spare;
  if (c === null || c.env.length !== slots) return ctxFor(state, prog, slots, player, null, null, state.choices.length - 1);
  listing.spare = null;
  return readied(c, state, prog, player, null, null, null, state.choices.length - 1, false);
}

/** Hidden information removed: other players' hidden fields and every hidden field of other kinds. */
export function viewFor(state: GameState, player: string): GameState {
  const prog = programFor(state);
  const pack = prog.pack;
  const view = cloneJson(state);
  for (const [id, rec] of Object.entries(view.e)) {
    const kind = pack.kindOf(id);
    if (!kind) continue;
    for (const f of pack.hidden[kind] ?? []) if (!(kind === 'player' && id === player)) rec[f] = null;
  }
  return attachProgram(prog, view);
}

/** A game is its seed and its choices: replays them and says where an old choice stopped being legal. */
export function replay(pack: CompiledPack, options: NewGameOptions, choices: string[]): { state: GameState; stoppedAt?: { step: number; choice: string; reason: string } } {
  let state = newGame(pack, options);
  for (let i = 0; i < choices.length; i++) {
    const r = apply(state, choices[i]);
    if (!r.ok) return { state, stoppedAt: { step: i, choice: choices[i], reason: r.reason } };
    state = r.state;
  }
  return { state };
}

/** The pack's invariants this state breaks: a scenario's setup that no game could reach is refused. */
export function violations(state: GameState): Array<{ message: string; rule: string }> {
  const prog = programFor(state);
  const out: Array<{ message: string; rule: string }> = [];
  for (const inv of prog.invariants) {
    const c = ctxFor(state, prog, inv.slots, null);
    if (inv.holds(c) !== true) out.push({ message: inv.message(c) as string, rule: inv.rule });
  }
  return out;
}

/** For each card (an entity of a kind with roles), the players its rules work for now, by its kind's first role. */
export function cardHolders(state: GameState): Record<string, string[]> {
  const prog = programFor(state);
  const out = table<string[]>();
  for (const [kind, ids] of Object.entries(prog.pack.byKind)) {
    if (!Object.keys(prog.roles[kind] ?? {}).length) continue;
    for (const id of ids) out[id] = holdersOf(prog, state, { card: id, roles: [], key: `${id}/` });
  }
  return out;
}

/** Final standings by the pack's `scoring`: score, then tiebreak, both higher first. */
export function standings(state: GameState): Array<{ player: string; score: number; tiebreak: number }> {
  const prog = programFor(state);
  // One context for every player's scores, not one each: a playout scores every game it plays, and a
  // scoring expression keeps nothing of a context but its locals, `it` and `value`, made anew for each.
  const c = ctxFor(state, prog, 0, null);
  const rows: Array<{ player: string; score: number; tiebreak: number }> = [];
  for (const p of state.players) {
    emptied(c.env);
    c.me = p;
    c.it = p;
    c.value = null;
    rows.push({ player: p, score: prog.score ? (prog.score(c) as number) : 0, tiebreak: prog.tiebreak ? (prog.tiebreak(c) as number) : 0 });
  }
  return sortedByStanding(rows);
}

/**
 * `rows` sorted in place by `byStanding`, equal rows kept in order as `Array.prototype.sort` keeps
 * them: by insertion, as a game has a few players, where that sort copies the rows into a work list
 * of its own for each game a playout scores.
 */
function sortedByStanding<T extends { score: number; tiebreak: number }>(rows: T[]): T[] {
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i];
    let j = i - 1;
    for (; j >= 0 && byStanding(rows[j], row) > 0; j--) rows[j + 1] = rows[j];
    rows[j + 1] = row;
  }
  return rows;
}

function byStanding(a: { score: number; tiebreak: number }, b: { score: number; tiebreak: number }): number {
  return b.score - a.score || b.tiebreak - a.tiebreak;
}

/**
 * The value of an expression compiled on its own (`pack.expression`) in `state`, with `me` the
 * player to act (else the current player), under the step budget of a choice. A rule that cannot
 * go on throws, with its reason.
 */
export function evaluate(state: GameState, compiled: { code: Expr; slots: number }): Value {
  const prog = programFor(state);
  const fn = linkExpression(prog.pack, compiled.code);
  return withStepBudget(() => withFrozenState(() => fn(ctxFor(state, prog, compiled.slots, state.prompt?.player ?? state.current))));
}

export function packName(state: GameState, lang = 'en'): string {
  const pack = programFor(state).pack;
  return pack.name[lang] ?? pack.id;
}

// ─── internals ─────────────────────────────────────────────────────────────

function offered(prog: Program, state: GameState): readonly ActionCode[] {
  return offerOf(prog, state).actions;
}

/**
 * What the offer asked now offers its player: found once for an offer's list of names (the `offer`
 * statement's own list) when no card's action comes with them, not at every listing.
 */
function offerOf(prog: Program, state: GameState): Offer {
  const names = state.prompt!.actions ?? [];
  const last = lastOffer;
  if (last !== null && last.names === names && last.prog === prog) return last;
  return offerFound(prog, state, names);
}

/** `offerOf` not the last offer found. */
function offerFound(prog: Program, state: GameState, names: readonly string[]): Offer {
  const p = state.prompt!;
  // Not kept past another program's offer: it would hold a pack dropped since, and a game of it.
  if (lastOffer !== null && lastOffer.prog !== prog) lastOffer = null;
  const known = offeredAlways.get(names);
  if (known !== undefined && known.prog === prog) return (lastOffer = known);
  const out: ActionCode[] = [];
  let always = true;
  for (const name of names) {
    for (const a of prog.actions[name] ?? []) if (!a.card) out.push(a);
    const companions = prog.companions[name] ?? [];
    if (companions.length) always = false;
    for (const a of companions) if (!out.includes(a) && holdersOf(prog, state, a.card!).includes(p.player)) out.push(a);
  }
  const one = out.length === 1 && out[0].params.length === 1 && out[0].card === undefined ? out[0] : null;
  // A warming program counts the runs of each part, the domain's and the checks' too: asked each time.
  const settledProg = prog.warming === undefined;
  const written = one !== null && settledProg ? one.lowered.domain : undefined;
  const domain = written !== undefined && written.op === 'const' && Array.isArray(written.value) ? (written.value as Value[]) : null;
  const needs = one !== null && settledProg ? paramsNeeded(one.lowered.checks, 1) : null;
  const unbound = needs !== null && (needs.length === 0 || needs[0] > 0);
  const o: Offer = { names, prog, actions: out, one, domain, unbound, ctx: null };
  if (always) offeredAlways.set(names, (lastOffer = o));
  return o;
}

/**
 * An offer's actions, and the one action of the game (no card's) of one parameter when it offers
 * that alone (else null), which a driven offer lists by its values (`drivenListing`), with the
 * context it is listed in there once made: an action's listings never overlap (a listing runs no
 * other) and its checks, expressions, keep nothing of a context, so one serves every listing.
 */
interface Offer {
  names: readonly string[];
  prog: Program;
  actions: readonly ActionCode[];
  one: ActionCode | null;
  /** `one`'s domain when written out (an `op: 'const'` list), found at every listing as this very list; else null. */
  domain: Value[] | null;
  /** Whether `one` has no leading check or its first reads the parameter: checked with none bound, they then hold, running nothing (`holdsWith`). */
  unbound: boolean;
  ctx: RunCtx | null;
}

const offeredAlways = new WeakMap<readonly string[], Offer>();

/**
 * The offer `offerOf` found last of those kept, looked at before `offeredAlways`: a game offers the
 * same few lists again and again, most often the one it offered last, and a look-up in a WeakMap at
 * every prompt costs more than two comparisons. It keeps that one program alive, and through its
 * listing context the state that context last listed, until another program's offer is found.
 */
let lastOffer: Offer | null = null;

/**
 * The `anytime` actions open now, with the player who may take each: at an offer or a `choose`, but
 * not inside a `resolving` block, nor while another `anytime` action is being resolved.
 */
function standing(prog: Program, state: GameState): ReadonlyArray<[ActionCode, string]> {
  const p = state.prompt;
  if (!p || p.resolving || !prog.anytime.length || p.frames.some((f) => f.reprompt)) return NONE_STANDING;
  const out: Array<[ActionCode, string]> = [];
  for (const a of prog.anytime) for (const q of a.card ? holdersOf(prog, state, a.card) : state.players) out.push([a, q]);
  return out;
}

const NONE_STANDING: ReadonlyArray<[ActionCode, string]> = [];

/** Why `a` with `args` cannot be taken by `player` in `st`, before its body runs, or null. */
function checkArgs(prog: Program, st: GameState, a: ActionCode, player: string, args: Value[]): { reason: string; rule?: string } | null {
  const pack = prog.pack;
  for (let i = 0; i < args.length; i++) {
    const domain = a.params[i].domain(actionCtx(prog, st, a, player, args)) as Value[];
    if (!domain.some((v) => sameValue(v, args[i]))) return { reason: `${display(pack, args[i])} is not a possible ${a.params[i].name} for ${a.name}` };
  }
  const limit = limitReason(a, st, player);
  if (limit) return { reason: limit };
  return a.pre(actionCtx(prog, st, a, player, args));
}

function actionCtx(prog: Program, st: GameState, a: ActionCode, player: string, args: Value[], step = st.choices.length): RunCtx {
  const c = ctxFor(st, prog, a.slots, player, a.card?.card ?? null, a.card ? player : null, step);
  for (let i = 0; i < args.length; i++) c.env[i] = args[i];
  return c;
}

/**
 * `c`, an action's context while its choices are listed, made ready for the next candidate: only
 * the action's arguments in its locals. Its checks are expressions, which keep nothing of a
 * context, so one context serves every candidate.
 */
function withArgs(c: RunCtx, args: Value[]): RunCtx {
  emptied(c.env);
  for (let i = 0; i < args.length; i++) c.env[i] = args[i];
  c.it = null;
  c.value = null;
  return c;
}

/**
 * The parameters' values that pass the leading checks, in order. A prefix that a check reading only
 * those parameters refuses is not extended: every choice starting with it would be refused. A full
 * candidate has passed every check, as `pre` would say.
 */
function combinations(a: ActionCode, c: RunCtx, actor: string, shared: ListingChecks, keep: boolean): Value[][] {
  const last = a.params.length;
  if (a.holdsWith(withArgs(c, NO_ARGS), 0, 0, 0) >= 0) return [];
  if (last === 1) return singles(a, c, actor, shared, keep);
  let out: Value[][] = [[]];
  for (let i = 0; i < last; i++) {
    const next: Value[][] = [];
    for (const prefix of out) {
      const domain = a.params[i].domain(withArgs(c, prefix)) as Value[];
      spend(domain.length);
      if (next.length + domain.length > MAX_COMBINATIONS) throw new Refusal(`the parameters of ${a.name} make more than ${MAX_COMBINATIONS.toLocaleString('en')} combinations (the choices budget)`, a.origin.where, 'choices');
      // A candidate's arguments are made once it passes: most candidates do not.
      for (let j = 0; j < domain.length; j++) {
        withArgs(c, prefix).env[i] = domain[j];
        if (a.holdsWith(c, i + 1, 0, 0) >= 0) continue;
        const args = prefix.slice();
        args.push(domain[j]);
        next.push(args);
      }
    }
    out = next;
  }
  return out;
}

/**
 * `combinations` of an action of one parameter, the most common, without the prefixes' lists. An
 * action listed before it with the same domain and first checks (`sharedChecks.ts`) gave its
 * domain's values, where each failed and its `let`s' values: a candidate it refused by those checks
 * is refused, and the others' checks run from the first that is not shared, with the `let`s it
 * computed for that candidate taken, not computed again. `keep`: an action listed after it may
 * take its answers (else they are not kept).
 */
function singles(a: ActionCode, c: RunCtx, actor: string, shared: ListingChecks, keep: boolean): Value[][] {
  const given = shared.sharedWith(a, actor);
  const domain = given ? given.values : (a.params[0].domain(withArgs(c, NO_ARGS)) as Value[]);
  spend(domain.length);
  if (domain.length > MAX_COMBINATIONS) throw new Refusal(`the parameters of ${a.name} make more than ${MAX_COMBINATIONS.toLocaleString('en')} combinations (the choices budget)`, a.origin.where, 'choices');
  const out: Value[][] = [];
  const failedAt: number[] = [];
  const known: number[] = [];
  const slots = keep ? letsOf(a).slots : NO_SLOTS;
  const stride = slots.length;
  const lets: Value[] = stride ? new Array(domain.length * stride) : [];
  const all = a.lowered.checks.length;
  const from = given ? given.from : 0;
  for (let j = 0; j < domain.length; j++) {
    const before = given ? given.failedAt[j] : -1;
    if (before >= 0 && before < from) {
      if (keep) {
        failedAt.push(before);
        known.push(0);
      }
      continue;
    }
    const env = withArgs(c, NO_ARGS).env;
    env[0] = domain[j];
    let set = 0;
    if (given) {
      const { carry } = given;
      const upTo = given.known[j];
      for (let k = 0; k < carry.slots.length; k++) {
        if (carry.at[k] >= upTo) continue;
        env[carry.slots[k]] = given.lets[j * given.stride + carry.source[k]];
        set |= carry.bits[k];
      }
    }
    const failed = a.holdsWith(c, 1, from, set);
    if (keep) {
      failedAt.push(failed);
      known.push(failed < 0 ? all : failed);
      for (let k = 0; k < stride; k++) lets[j * stride + k] = env[slots[k]];
    }
    if (failed < 0) out.push([domain[j]]);
  }
  if (keep) shared.keep(a, actor, domain, failedAt, lets, known);
  return out;
}

const NO_SLOTS: readonly number[] = [];

/**
 * `combinations` of an action of one parameter that keeps no answers and takes none (`singles`
 * then runs every check of every candidate), as the values that pass: found by its `candidates`,
 * in one call. `domain`: its parameter's domain when written out, the list it gives at every
 * listing, else null (asked); `unbound`: its leading checks hold with no parameter bound, running
 * nothing (none, or the first reads the parameter), else asked. `candidates` makes the locals ready
 * for each value itself: the locals are emptied (`withArgs`) only for what is asked before it.
 */
function valuesOf(a: ActionCode, c: RunCtx, domain: Value[] | null, unbound: boolean): Value[] {
  const found: Value[] = [];
  if (!unbound && a.holdsWith(withArgs(c, NO_ARGS), 0, 0, 0) >= 0) return found;
  const d = domain ?? (a.params[0].domain(withArgs(c, NO_ARGS)) as Value[]);
  spend(d.length);
  if (d.length > MAX_COMBINATIONS) throw new Refusal(`the parameters of ${a.name} make more than ${MAX_COMBINATIONS.toLocaleString('en')} combinations (the choices budget)`, a.origin.where, 'choices');
  a.candidates(c, d, found);
  return found;
}

/** `valuesOf`, or none when `actor`'s uses of `a` are spent (its domain still asked, counted as it was). */
function valuesOpen(a: ActionCode, c: RunCtx, state: GameState, actor: string, domain: Value[] | null, unbound: boolean): Value[] {
  const values = valuesOf(a, c, domain, unbound);
  return a.limit === undefined || limitReason(a, state, actor) === null ? values : NO_ARGS;
}

/** `valuesOpen` of offer `o`'s one action, with what `offerFound` found of it once. */
function offeredValues(o: Offer, c: RunCtx, state: GameState, actor: string): Value[] {
  return valuesOpen(o.one!, c, state, actor, o.domain, o.unbound);
}

/** Off only inside `listingSteps`: every listing finds such an action's values by `valuesOf`. */
let oneCall = true;

/**
 * The choices a listing of `state` gives (`blind`: a playout's, as player, action and arguments;
 * else `legalChoices`', labelled) and the budget steps it took, with an action of one parameter that
 * keeps no answers found by one call of its `candidates` (`valuesOf`, as every listing finds it) or,
 * `oneCall` false, asked candidate by candidate as `singles` asks an action that keeps its answers.
 * Internal: test/listing-budget.test.ts holds the two to the same choices and the same steps, which
 * no listing's result shows.
 */
export function listingSteps(state: GameState, options: { oneCall: boolean; blind: boolean }): { listed: Array<Pick<Choice, 'player' | 'action' | 'args'>>; steps: number } {
  const was = oneCall;
  oneCall = options.oneCall;
  try {
    return withStepBudget(() =>
      withFrozenState(() => {
        const l = listChoices(state, !options.blind, options.blind);
        const steps = stepsTaken();
        if (l.runs === null) return { listed: l.choices!.map(({ player, action, args }) => ({ player, action, args })), steps };
        const listed: Array<Pick<Choice, 'player' | 'action' | 'args'>> = [];
        for (const r of l.runs) {
          const all = r.values !== null ? r.values.map((v) => [v]) : r.args!;
          for (const args of all) listed.push({ player: r.player, action: r.code ? r.code.name : args.length ? 'choose' : 'skip', args });
        }
        return { listed, steps };
      }),
    );
  } finally {
    oneCall = was;
  }
}

function actionKey(a: ActionCode): string {
  return a.card ? `${a.card.card}.${a.name}` : a.name;
}

/** Limits count per player: "once per turn" is each player's once, also in another's turn. */
function usageKey(a: ActionCode, player: string): string {
  return `${actionKey(a)}@${player}`;
}

function limitReason(a: ActionCode, st: GameState, player: string): string | null {
  if (!a.limit) return null;
  const used = (a.limit.per === 'turn' ? st.used : st.usedGame)[usageKey(a, player)] ?? 0;
  return used >= a.limit.times ? `${a.name} may be used ${a.limit.times === 1 ? 'once' : `${a.limit.times} times`} per ${a.limit.per}, and that is spent` : null;
}

/** `by`: the player taking an `anytime` action at another player's offer (`newAllies.play@p2`). */
function choiceId(a: ActionCode, args: Value[], by?: string): string {
  if (by === undefined && args.length === 1) {
    const v = args[0];
    if (typeof v !== 'string' && typeof v !== 'number') return `${actionKey(a)} ${encodeArg(v)}`;
    let id = a.ids.get(v);
    if (id === undefined) {
      id = `${actionKey(a)} ${encodeArg(v)}`;
      // A domain of numbers may be long (`1..n`): the ids kept are the ones a board names.
      if (a.ids.size < MAX_KEPT_IDS) a.ids.set(v, id);
    }
    return id;
  }
  let id = by ? `${actionKey(a)}@${by}` : actionKey(a);
  for (let i = 0; i < args.length; i++) id += ` ${encodeArg(args[i])}`;
  return id;
}

const MAX_KEPT_IDS = 4096;

/** An id whose words hold no quote or list, one space apart: its words are what is between the spaces. */
const PLAIN_ID = /^[^\s"[]+(?: [^\s"[]+)*$/;

function splitId(id: string): string[] {
  const out: string[] = [];
  const re = /"(?:[^"\\]|\\.)*"|\[[^\]]*\]|\S+/g;
  for (const m of id.matchAll(re)) out.push(m[0]);
  return out;
}

function labelOf(a: ActionCode, c: RunCtx, args: Value[], pack: CompiledPack): string {
  if (a.label) {
    try {
      return a.label(c) as string;
    } catch {
      /* a label that cannot be computed falls back to the plain form */
    }
  }
  return [a.name, ...args.map((x) => display(pack, x))].join(' ');
}
