import type { SourceFile } from '../compiler/source.ts';
import { closest } from '../compiler/suggest.ts';
import type { CompiledPack } from '../runtime/compiled.ts';
import { cloneJson } from '../runtime/clone.ts';
import { watchStatements } from '../runtime/engine.ts';
import { apply, attach, legalChoices, newGame, violations, type ApplyResult } from '../runtime/index.ts';
import type { GameState, Value } from '../runtime/types.ts';
import { display } from '../runtime/values.ts';
import { checkExpectations, type Fail } from './expect.ts';
import type { Failure, Moment, Rolls, Scenario, ScenarioResult, StateCheck, Step } from './format.ts';
import { suggest } from './values.ts';
import { readScenarioFile } from './read.ts';
import { applySetup } from './setup.ts';

export interface RunOptions {
  /** Run only scenarios whose name contains this text (case ignored). */
  filter?: string;
  /**
   * The pack's check of a whole state, for setups that no game could reach. Defaults to the
   * compiled pack's own `validate`, once the compiler provides one.
   */
  validate?: StateCheck;
}

/** Runs every scenario of the files against one compiled pack. A file that cannot be read is one failed result. */
export function runScenarios(pack: CompiledPack, files: SourceFile[], options: RunOptions = {}): ScenarioResult[] {
  const out: ScenarioResult[] = [];
  for (const file of files) {
    const read = readScenarioFile(file);
    if (read.problems.length) {
      const first = read.problems[0].at;
      out.push({ scenario: file.path, file: file.path, line: first.line, column: first.column, passed: false, failures: read.problems, steps: 0 });
    }
    for (const s of read.scenarios) {
      if (options.filter && !s.name.toLowerCase().includes(options.filter.toLowerCase())) continue;
      out.push(runScenario(pack, s, options, file.text));
    }
  }
  return out;
}

/**
 * One scenario: a new game with the `setup` edits made before the flow starts, the setup steps,
 * then each step and its checks, then the final checks.
 */
export function runScenario(pack: CompiledPack, s: Scenario, options: RunOptions = {}, text?: string): ScenarioResult {
  const lines = text?.split('\n');
  const failures: Failure[] = [];
  const fail: Fail = (at, message, extra = {}) => failures.push({ at, message, excerpt: lines?.[at.line - 1]?.replace(/\r$/, ''), ...extra });
  const result = (steps: number): ScenarioResult => ({ scenario: s.name, file: s.file, line: s.at.line, column: s.at.column, passed: failures.length === 0, failures, steps });

  if (s.problems.length) {
    failures.push(...s.problems);
    return result(0);
  }
  if (s.pack && s.pack.id !== pack.id) {
    fail(s.pack.at, `this scenario is for the pack \`${s.pack.id}\`, but it was run with \`${pack.id}\``);
    return result(0);
  }

  let state: GameState;
  let setupOk = true;
  try {
    const validate: StateCheck = options.validate ?? ((st) => violations(st).map((v) => ({ entity: '', field: '', message: `${v.message} (${v.rule})` })));
    // The edits are made after the pack's `setup` rules, before its `flow` starts.
    const prepare = (st: GameState) => {
      if (s.setup.length) setupOk = applySetup(pack, st, s.setup, fail, validate);
      if (s.rolls) st.forced = cloneJson(s.rolls.values as Value[]);
    };
    state = newGame(pack, { players: s.players, seed: s.seed, prepare: s.setup.length || s.rolls ? prepare : undefined });
  } catch (e) {
    const err = e as Error;
    if (failures.length) return result(0);
    fail(err instanceof RangeError ? s.playersAt : s.at, err instanceof RangeError ? err.message : `the game could not start: ${err.message}`);
    return result(0);
  }
  if (!setupOk) return result(0);
  if (s.rolls) state = rollsUsed(pack, state, s.rolls, 'the flow’s start (up to the first decision)', fail);

  let applied = 0;
  for (const step of s.setupSteps) {
    const r = runStep(pack, state, step, `setup step ${step.index + 1}`, fail);
    if (!r) return result(applied);
    state = r.state;
    applied += 1;
  }

  for (const step of s.steps) {
    const logFrom = state.log.length;
    const label = `step ${step.index + 1} (\`${step.player}: ${step.choice}\`)`;
    const moments = new Moments(step.moments, logFrom);
    const r = runStep(pack, state, step, `step ${step.index + 1}`, fail, moments);
    if (!r) return result(applied);
    if (r.applied) applied += 1;
    state = r.state;
    if (r.applied) {
      for (const m of moments.seen) checkExpectations(pack, m.state, m.moment.expect, `when ${label} logged ${JSON.stringify(m.moment.logged)}`, logFrom, fail);
      for (const m of moments.pending) fail(m.at, `${label} wrote no log entry containing ${JSON.stringify(m.logged)}${moments.seen.length ? ' after the moments before it' : ''}, so the checks of that moment were not made`, { found: state.log.slice(logFrom).map((l) => l.text).slice(-12) });
    }
    checkExpectations(pack, state, step.expect, `after ${label}`, logFrom, fail);
  }

  checkExpectations(pack, state, s.expect, s.steps.length ? `at the end (after step ${s.steps.length})` : 'at the start', 0, fail);
  return result(applied);
}

/**
 * Makes one step's choice. Returns the state to go on with, or undefined when the scenario cannot
 * go on (an unexpected refusal). A choice that should have been refused but was applied is a
 * failure; the scenario goes on from the unchanged state, as its author assumed.
 */
function runStep(pack: CompiledPack, state: GameState, step: Step, name: string, fail: Fail, moments?: Moments): { state: GameState; applied: boolean } | undefined {
  const label = `${name} (\`${step.player}: ${step.choice}\`)`;
  const r = tryStep(pack, withRolls(pack, state, step.rolls), step, moments);
  if ('error' in r) {
    fail(step.at, `${label} made the rules fail: ${r.error}`, { hint: 'this is a bug in the pack or in rulebook, not in the scenario' });
    return undefined;
  }
  if (step.refused) {
    const want = step.refused.text;
    if (r.ok) {
      fail(step.refused.at, `${label} should have been refused, but it was applied`, { expected: want === true ? 'refused' : `refused: ${want}`, found: 'applied', hint: `\`${step.choice}\` is legal here` });
      return { state, applied: false };
    }
    if (want !== true && !sameWords(r.reason, want)) {
      fail(step.refused.at, `${label} was refused, but for another reason`, { expected: want, found: r.reason, reason: r.reason });
    }
    if (r.state !== state && JSON.stringify({ ...r.state, forced: undefined }) !== JSON.stringify({ ...state, forced: undefined })) {
      fail(step.at, `${label} was refused but changed the state`, { hint: 'a refused choice must leave the game as it was: this is a bug in rulebook' });
    }
    return { state, applied: false };
  }
  if (!r.ok) {
    const ids = legalChoices(state).map((c) => c.id);
    const mine = state.prompt?.player === step.player;
    // "did you mean" only for a choice no legal id resembles in its action; a rule's refusal of a well-formed choice says enough
    const head = step.choice.split(' ')[0];
    const guess = mine && !ids.some((id) => id.split(' ')[0] === head) ? closest(step.choice, ids) : undefined;
    const legal = ids.length ? `legal now for ${state.prompt?.player}: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? ', …' : ''}` : undefined;
    const hint = guess ? `did you mean \`${guess}\`? (${legal})` : [unknownIds(pack, state, step.choice), legal].filter(Boolean).join('; ') || undefined;
    fail(step.at, `${label} was refused`, { reason: r.rule ? `${r.reason} (${r.rule})` : r.reason, hint });
    return undefined;
  }
  if (step.rolls) return { state: rollsUsed(pack, r.state, step.rolls, label, fail), applied: true };
  return { state: r.state, applied: true };
}

/** A "did you mean" for each word of a choice id that looks like an id but names nothing in the pack. */
function unknownIds(pack: CompiledPack, state: GameState, choice: string): string | undefined {
  const known = [...Object.keys(pack.entities), ...state.players];
  const said = choice
    .split(' ')
    .slice(1)
    .filter((w) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(w) && !(w in pack.entities) && !state.players.includes(w) && !Object.values(pack.enums).some((m) => m.includes(w)) && !['true', 'false', 'none'].includes(w))
    .map((w) => [w, suggest(w, known)] as const)
    .filter(([, g]) => g)
    .map(([w, g]) => `\`${w}\` names nothing in this pack: did you mean \`${g}\`?`);
  return said.length ? said.join('; ') : undefined;
}

/** A refusal reason holds the expected words in order; case, punctuation, quotes and backticks aside. */
function sameWords(reason: string, want: string): boolean {
  const words = (t: string) => ` ${t.toLowerCase().replace(/[^\p{L}\p{N}_]+/gu, ' ').trim()} `;
  return words(reason).includes(words(want));
}

/** The state with a step's forced rolls queued, for the choice to take before the generator. */
function withRolls(pack: CompiledPack, state: GameState, rolls: Rolls | undefined): GameState {
  if (!rolls) return state;
  return attach(pack, { ...state, forced: [...(state.forced ?? []), ...cloneJson(rolls.values as Value[])] });
}

/** Forced rolls must all be used where they were given: one left over means the rules rolled less than the author thought. */
function rollsUsed(pack: CompiledPack, state: GameState, rolls: Rolls, where: string, fail: Fail): GameState {
  const left = state.forced?.length ?? 0;
  if (!left) return state;
  fail(rolls.at, `${where} used ${rolls.values.length - left} of the ${rolls.values.length} forced rolls`, { expected: rolls.values, found: rolls.values.slice(0, rolls.values.length - left), hint: 'give only the rolls the rules make there: a die roll per `roll`, a number per `random`' });
  const rest = attach(pack, { ...state });
  delete rest.forced;
  return rest;
}

/**
 * Checks at moments inside a choice: before each rule statement the runtime runs, the log is read
 * for the next awaited entry; once written, the state is copied there for the moment's checks.
 */
class Moments {
  readonly seen: Array<{ moment: Moment; state: GameState }> = [];
  readonly pending: Moment[];
  private scanned: number;

  constructor(moments: Moment[], logFrom: number) {
    this.pending = [...moments];
    this.scanned = logFrom;
  }

  watch(pack: CompiledPack, st: GameState): void {
    while (this.pending.length && this.scanned < st.log.length) {
      const needle = this.pending[0].logged.toLowerCase();
      const at = st.log.findIndex((l, i) => i >= this.scanned && l.text.toLowerCase().includes(needle));
      if (at < 0) {
        this.scanned = st.log.length;
        return;
      }
      this.seen.push({ moment: this.pending.shift()!, state: attach(pack, cloneJson(st)) });
      this.scanned = at + 1;
    }
  }
}

/** Applies a step's choice for its named player; a choice by someone who is not to act is refused like any other. */
function tryStep(pack: CompiledPack, state: GameState, step: Step, moments?: Moments): ApplyResult | { error: string } {
  if (!state.players.includes(step.player)) return { ok: false, reason: `there is no ${step.player} in a ${state.players.length}-player game`, state };
  if (state.over) return { ok: false, reason: 'the game is over', state };
  const who = state.prompt?.player;
  if (!who) return { ok: false, reason: 'nobody is to act now', state };
  const notYou = { ok: false as const, reason: `${display(pack, who)} (${who}) must act now, not ${display(pack, step.player)} (${step.player})`, state };
  // Another player may still step in with an `anytime` action (a reward card played in any turn).
  try {
    const r = moments?.pending.length ? watchStatements((st) => moments.watch(pack, st), () => apply(state, step.choice, { player: step.player })) : apply(state, step.choice, { player: step.player });
    if (r.ok && moments) moments.watch(pack, r.state);
    return !r.ok && who !== step.player && r.reason.includes('must act now') ? notYou : r;
  } catch (e) {
    return { error: (e as Error).message };
  }
}
