import { cloneJson, cloneState, newTable, sameValue } from './clone.ts';
import type { CompiledPack, Expr } from './compiled.ts';
import { MAX_COMBINATIONS, spend, withStepBudget } from './budget.ts';
import { ctxFor, newFrame, resume, runBlock } from './engine.ts';
import { forgetHolders, holdersOf, shareHolders, withFrozenState } from './holders.ts';
import { linkExpression, programOf, warmed, type EngineName } from './link.ts';
import { logLine } from './log.ts';
import { playerId } from './players.ts';
import { FINISH, SUSPEND, type ActionCode, type Program, type RunCtx } from './program.ts';
import { Refusal } from './refusal.ts';
import { seedState } from './rng.ts';
import { startingRecords } from './start.ts';
import { metaIfAny, metaOf } from './stateMeta.ts';
import { table } from './table.ts';
import type { ApplyResult, Choice, Frame, GameState, NewGameOptions, Value } from './types.ts';
import { decodeArg, display, encodeArg } from './values.ts';

export type { ApplyResult, Choice, GameState, NewGameOptions, Value, LogEntry } from './types.ts';
export type { CompiledPack } from './compiled.ts';
export { withEngine, type EngineName } from './link.ts';
export { display } from './values.ts';


/** A state loaded from JSON made ready to play with `pack`, by the engine given (else the default). */
export function attach(pack: CompiledPack, state: GameState, engine?: EngineName): GameState {
  forgetHolders(state);
  return attachProgram(programOf(pack, engine), state);
}

function attachProgram(prog: Program, state: GameState): GameState {
  // Every state knows the pack it is played with, without carrying closures in its JSON.
  metaOf(state).prog = prog;
  return state;
}

function programFor(state: GameState): Program {
  const m = metaIfAny(state);
  const p = m?.prog;
  if (!p) throw new Error('this game state was not made by newGame/apply; call attach(pack, state) after loading it');
  // Both programs play the same game (test/engine-differential.test.ts), and number blocks and rules alike: a state may change from one to the other.
  return p.warming === undefined ? p : (m.prog = warmed(p));
}

/** A new game: players p1…pN, every entity's fields at their starting values, setup run, up to the first decision. */
export function newGame(pack: CompiledPack, options: NewGameOptions): GameState {
  // A warm pack's setup runs on its generated code too: one engine per game keeps the hot paths single.
  const prog = warmed(programOf(pack, options.engine));
  const { players: n } = options;
  if (!Number.isInteger(n) || n < pack.players.min || n > pack.players.max) {
    throw new RangeError(`${pack.name.en ?? pack.id} is played by ${pack.players.min} to ${pack.players.max} players, not ${n}`);
  }
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
  const frameOf = (s: { body: { id: number }; slots: number }) => newFrame(s.body.id, 0, new Array(s.slots).fill(null), null, null, null, false);
  withStepBudget(() => setUp(prog, st, options, frameOf));
  return st;
}

function setUp(prog: Program, st: GameState, options: NewGameOptions, frameOf: (s: { body: { id: number }; slots: number }) => Frame): void {
  try {
    // Setups that ask a player something suspend like any rule; the edits and the flow then wait
    // for that answer, so they run here only when the setups finish at once.
    const flow = prog.flow ? [frameOf(prog.flow)] : [];
    if (options.prepare) {
      resume(prog.setups.map(frameOf), prog, st, -1, false);
      // The edits would have to wait for an answer that the game's seed and choices cannot hold.
      if (st.prompt) throw new Error(`the pack's setup asks ${display(prog.pack, st.prompt.player)} to choose${st.prompt.text ? ` (${st.prompt.text})` : ''} before the game starts, so the state cannot be edited after it; ask that in the flow instead`);
      options.prepare(st);
      forgetHolders(st);
      resume(flow, prog, st, -1);
    } else resume([...prog.setups.map(frameOf), ...flow], prog, st, -1);
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
  const out = withStepBudget(() => withFrozenState(() => listChoices(state, options.labels ?? true)));
  const players = new Array<string>(out.length);
  const ids = new Array<string>(out.length);
  for (let i = 0; i < out.length; i++) {
    players[i] = out[i].player;
    ids[i] = out[i].id;
  }
  metaOf(state).listed = { players, ids };
  return out;
}

/**
 * The ids last listed as legal for a state. A state is never changed once made (apply copies it), so
 * a choice listed for it (for the same player) need not have its parameters and leading requires
 * checked again by `apply`; the action's body still runs every require.
 */
function wasListed(state: GameState, player: string, id: string): boolean {
  const l = metaIfAny(state)?.listed;
  if (!l) return false;
  for (let i = 0; i < l.ids.length; i++) if (l.ids[i] === id && l.players[i] === player) return true;
  return false;
}

function listChoices(state: GameState, labels: boolean): Choice[] {
  const prog = programFor(state);
  const pack = prog.pack;
  const p = state.prompt;
  if (!p || state.over) return [];
  if (p.kind === 'choose') {
    const out: Choice[] = (p.options ?? []).map((o) => ({ id: `choose ${encodeArg(o)}`, player: p.player, action: 'choose', args: [o], label: `${p.text ? `${p.text}: ` : ''}${display(pack, o)}` }));
    if (p.optional) out.push({ id: 'skip', player: p.player, action: 'skip', args: [], label: p.text ? `${p.text}: none` : 'Skip' });
    out.push(...standingChoices(prog, state, p.player, labels));
    return out;
  }
  const out: Choice[] = [];
  for (const a of offered(prog, state)) {
    const spent = limitReason(a, state, p.player) !== null;
    const c = actionCtx(prog, state, a, p.player, []);
    for (const args of combinations(a, c)) {
      if (spent || a.pre(withArgs(c, args), false) !== null) continue;
      const id = choiceId(a, args);
      out.push({ id, player: p.player, action: a.name, args, label: labels ? labelOf(a, c, args, pack) : id });
    }
  }
  out.push(...standingChoices(prog, state, p.player, labels));
  return out;
}

/** The `anytime` actions open now, as choices (carrying their player when it is not the one asked). */
function standingChoices(prog: Program, state: GameState, asked: string, labels: boolean): Choice[] {
  const pack = prog.pack;
  const out: Choice[] = [];
  for (const [a, actor] of standing(prog, state)) {
    const spent = limitReason(a, state, actor) !== null;
    const c = actionCtx(prog, state, a, actor, []);
    for (const args of combinations(a, c)) {
      if (spent || a.pre(withArgs(c, args), false) !== null) continue;
      const id = choiceId(a, args, actor === asked ? undefined : actor);
      out.push({ id, player: actor, action: a.name, args, label: labels ? labelOf(a, c, args, pack) : id });
    }
  }
  return out;
}

/** Applies a choice by id. An illegal choice is refused with the rule's reason, and the state is left as it was. */
export function apply(state: GameState, choice: string | Choice, options: { player?: string } = {}): ApplyResult {
  return withStepBudget(() => applyChoice(state, choice, options));
}

function applyChoice(state: GameState, choice: string | Choice, options: { player?: string }): ApplyResult {
  const prog = programFor(state);
  const pack = prog.pack;
  const id = typeof choice === 'string' ? choice : choice.id;
  const p = state.prompt;
  if (!p || state.over) return { ok: false, reason: 'the game is over', state };
  const plain = PLAIN_ID.test(id);
  const parts = plain ? id.split(' ') : splitId(id);
  // One choice has one id: spaces added around or between its words make another, which no list offers.
  if (!plain && parts.join(' ') !== id) return { ok: false, reason: `\`${id.slice(0, 80)}\` is not a choice as listed (words apart by one space)`, state };
  const [head = '', ...rawArgs] = parts;
  const [key, by] = head.split('@');
  const actor = by ?? options.player ?? (typeof choice === 'string' ? p.player : choice.player);
  const anytime = standing(prog, state).find(([x, q]) => q === actor && actionKey(x) === key)?.[0];
  if (actor !== p.player && !anytime) return { ok: false, reason: `${display(pack, p.player)} must act now, not ${display(pack, actor)}`, state };
  // `@player` names who acts at another player's offer; the player asked is listed without it.
  if (by !== undefined && by === p.player) return { ok: false, reason: `${display(pack, p.player)} is asked: their choice is \`${[key, ...rawArgs].join(' ').slice(0, 80)}\`, without \`@${by}\``, state };
  const next = cloneState(state);
  attachProgram(prog, next);
  shareHolders(state, next);
  const step = state.choices.length;
  next.choices.push(anytime && actor !== p.player ? [`${key}@${actor}`, ...rawArgs].join(' ') : id);
  const prompt = next.prompt!;
  next.prompt = null;
  /** The action taken, whose rule a refusal outside any statement names. */
  let taken: ActionCode | undefined;
  try {
    if (prompt.kind === 'choose' && !anytime) {
      let value: Value;
      if (id === 'skip') {
        if (!prompt.optional) return { ok: false, reason: 'this choice cannot be skipped', state };
        value = null;
      } else {
        if (!id.startsWith('choose ')) return { ok: false, reason: `${display(pack, prompt.player)} must choose${prompt.text ? ` (${prompt.text})` : ''}, not \`${id}\``, state };
        value = decodeArg(id.slice(7));
        if (!(prompt.options ?? []).some((o) => sameValue(o, value))) return { ok: false, reason: `${display(pack, value)} is not one of the options${prompt.text ? ` for “${prompt.text}”` : ''}`, state };
      }
      logLine(next, step, `${display(pack, prompt.player)} chose ${value === null ? 'nothing' : display(pack, value)}${prompt.text ? ` (${prompt.text})` : ''}`, prompt.rule, prompt.player);
      const asked = prompt.frames[0];
      const env = asked.env.slice();
      env[prompt.slot!] = value;
      prompt.frames[0] = { ...asked, env };
      resume(prompt.frames, prog, next, step);
      return { ok: true, state: next };
    }
    const a = anytime ?? offered(prog, state).find((x) => actionKey(x) === key);
    taken = a;
    if (!a) {
      const known = prog.actions[key.split('.').pop()!];
      return { ok: false, reason: known ? `\`${key}\` is not open to ${display(pack, prompt.player)} now` : `there is no action \`${key}\``, state };
    }
    const player = anytime ? actor : prompt.player;
    // An `anytime` action interrupts the offer or the choice, which is asked again once the action is over.
    const after = anytime ? [newFrame(-1, 0, [], null, null, null, false, undefined, undefined, prompt)] : prompt.frames;
    const args = rawArgs.map(decodeArg);
    if (args.length !== a.params.length) return { ok: false, reason: `\`${a.name}\` takes ${a.params.length} choice(s): ${a.params.map((x) => x.name).join(', ')}`, state };
    const c = actionCtx(prog, next, a, player, args, step);
    if (!wasListed(state, player, id)) {
      const refused = withFrozenState(() => checkArgs(prog, state, a, player, args));
      if (refused) return { ok: false, ...refused, state };
    }
    const usage = usageKey(a, player);
    if (a.limit?.per === 'turn') next.used[usage] = (next.used[usage] ?? 0) + 1;
    if (a.limit?.per === 'game') next.usedGame[usage] = (next.usedGame[usage] ?? 0) + 1;
    logLine(next, step, `${display(pack, player)}: ${labelOf(a, c, args, pack)}`, a.origin.where, player);
    const sig = runBlock(a.body, 0, c);
    if (sig === SUSPEND) {
      next.prompt!.frames.push(...after);
      return { ok: true, state: next };
    }
    if (sig === FINISH) {
      next.over = true;
      return { ok: true, state: next };
    }
    resume(after, prog, next, step);
    return { ok: true, state: next };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.message, rule: e.where ?? taken?.origin.where, ...(e.budget && { budget: e.budget }), state };
    throw e;
  }
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
  const rows = state.players.map((p) => {
    const c = ctxFor(state, prog, 0, p);
    c.it = p;
    return { player: p, score: prog.score ? (prog.score(c) as number) : 0, tiebreak: prog.tiebreak ? (prog.tiebreak(c) as number) : 0 };
  });
  return rows.sort((a, b) => b.score - a.score || b.tiebreak - a.tiebreak);
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

function offered(prog: Program, state: GameState): ActionCode[] {
  const p = state.prompt!;
  const out: ActionCode[] = [];
  for (const name of p.actions ?? []) {
    for (const a of prog.actions[name] ?? []) if (!a.card) out.push(a);
    for (const a of prog.companions[name] ?? []) if (!out.includes(a) && holdersOf(prog, state, a.card!).includes(p.player)) out.push(a);
  }
  return out;
}

/**
 * The `anytime` actions open now, with the player who may take each: at an offer or a `choose`, but
 * not inside a `resolving` block, nor while another `anytime` action is being resolved.
 */
function standing(prog: Program, state: GameState): Array<[ActionCode, string]> {
  const p = state.prompt;
  if (!p || p.resolving || !prog.anytime.length || p.frames.some((f) => f.reprompt)) return [];
  const out: Array<[ActionCode, string]> = [];
  for (const a of prog.anytime) for (const q of a.card ? holdersOf(prog, state, a.card) : state.players) out.push([a, q]);
  return out;
}

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
  c.env.fill(null);
  for (let i = 0; i < args.length; i++) c.env[i] = args[i];
  c.it = null;
  c.value = null;
  return c;
}

/**
 * The parameter values to try, in order. A prefix that a leading check reading only those
 * parameters refuses is not extended: every choice starting with it would be refused.
 */
function combinations(a: ActionCode, c: RunCtx): Value[][] {
  const last = a.params.length;
  if (!a.holdsWith(withArgs(c, []), 0)) return [];
  let out: Value[][] = [[]];
  for (let i = 0; i < last; i++) {
    const next: Value[][] = [];
    for (const prefix of out) {
      const domain = a.params[i].domain(withArgs(c, prefix)) as Value[];
      spend(domain.length);
      if (next.length + domain.length > MAX_COMBINATIONS) throw new Refusal(`the parameters of ${a.name} make more than ${MAX_COMBINATIONS.toLocaleString('en')} combinations (the choices budget)`, a.origin.where, 'choices');
      for (const v of domain) {
        const args = [...prefix, v];
        if (i + 1 === last || a.holdsWith(withArgs(c, args), i + 1)) next.push(args);
      }
    }
    out = next;
  }
  return out;
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
  let id = by ? `${actionKey(a)}@${by}` : actionKey(a);
  for (let i = 0; i < args.length; i++) id += ` ${encodeArg(args[i])}`;
  return id;
}

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
