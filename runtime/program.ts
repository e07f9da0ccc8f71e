import type { Check, CompiledPack, Expr, Origin } from './compiled.ts';
import type { Table } from './table.ts';
import type { GameState, Value } from './types.ts';

/** A pack linked for play (`link.ts`): its rules as handlers, over the pack's data. */
export interface Program {
  pack: CompiledPack;
  /** By block number, as frames name them. */
  blocks: BlockCode[];
  /** Kind name → role name → players holding a card of that kind in that role. */
  roles: Table<Table<(c: RunCtx) => string[]>>;
  actions: Table<ActionCode[]>;
  /** Game action → card actions offered with it. */
  companions: Table<ActionCode[]>;
  /** Actions offered at every offer to their holders, whoever is asked (`anytime`). */
  anytime: ActionCode[];
  triggers: Table<TriggerCode[]>;
  pipelines: Table<PipelineCode>;
  /** Card kinds whose holders are kept with the state (`holders.ts`), by number. */
  kindGroup: Map<string, number>;
  /** Each event's triggers and each pipeline's modifiers, split by where their holders come from. */
  triggerPlans: Table<CallPlan>;
  modifierPlans: Table<CallPlan>;
  procs: Table<ProcCode>;
  fns: Table<FnCode>;
  setups: Array<{ body: BlockCode; slots: number }>;
  flow?: { body: BlockCode; slots: number };
  invariants: Array<{ message: ExprFn; holds: ExprFn; slots: number; rule: string }>;
  score?: ExprFn;
  tiebreak?: ExprFn;
  /** A player's expected final score (`scoring: estimate`), for bots. */
  estimate?: ExprFn;
  /** By action name, a choice's worth to a bot (`scoring: prefer`), its arguments in the first locals. */
  prefer?: Table<{ value: ExprFn; slots: number }>;
  /** For a game that names no engine: the interpreter's uses and their budget steps so far, and the program it goes on with once picked (`warmed`). */
  warming?: { calls: number; steps: number; next: Program | undefined };
}

/**
 * A list of rules (an event's triggers, a pipeline's modifiers) by position: those of no card, with no
 * holder; by kept kind, those whose holders are kept with the state; the others, asked each time.
 */
export interface CallPlan {
  fixed: Array<[number, null]>;
  kept: Array<[number, number[]]>;
  loose: number[];
}

/** Signals a statement returns to its block. */
export const NORMAL = 0;
export const BREAK = 1;
export const SUSPEND = 2;
export const FINISH = 3;
export type Signal = 0 | 1 | 2 | 3;

/** What a rule sees while it runs. `it` and `value` are set around `where` and `modify`. */
export interface RunCtx {
  st: GameState;
  prog: Program;
  env: Value[];
  me: string | null;
  self: string | null;
  holder: string | null;
  it: Value;
  value: Value;
  /** Index of the choice being applied, for the log. */
  step: number;
  /** Inside a `resolving` block: no `anytime` action may be taken at a prompt asked here. */
  resolving: boolean;
}

export type ExprFn = (c: RunCtx) => Value;
export type StmtFn = (c: RunCtx) => Signal;

export interface BlockCode {
  id: number;
  stmts: StmtFn[];
  /** `file:line` of each statement. */
  lines: Array<string | undefined>;
  /**
   * The whole block as one generated function, run from its first statement as `runBlock` runs it
   * (codegen/emitFlow.ts), where the generated engine gives one; undefined on the interpreter's.
   */
  whole: StmtFn | undefined;
}

/** A card binding as linked: `key` (`card/roles`) names the holders cached while listing choices. */
export interface Binding {
  card: string;
  roles: string[];
  key: string;
}

export interface ActionCode {
  name: string;
  card?: Binding;
  with?: string;
  anytime: boolean;
  params: Array<{ name: string; domain: ExprFn; type: string }>;
  slots: number;
  label?: ExprFn;
  limit?: { times: number; per: 'turn' | 'game' };
  /** The leading `require`s: why the action is refused (an empty reason unless `explain`), or null. */
  pre: (c: RunCtx, explain?: boolean) => { reason: string; rule?: string } | null;
  /**
   * The leading checks that read no parameter past the first `bound`, up to the first that reads
   * more: the place of the first that fails, or -1 when they hold. The `require`s before place
   * `from` are not run (another action's same checks held for these arguments), nor the `let`s at
   * the places whose bits are set in `set` (the caller put the values another action computed for
   * these arguments in their slots).
   */
  holdsWith: (c: RunCtx, bound: number, from: number, set: number) => number;
  /**
   * For an action of one parameter: each value of `domain` that passes the leading checks reading
   * no parameter past the first (`holdsWith(c, 1, 0, 0)` of each, with only that value in the
   * locals), pushed onto `out` in order. A playout's listing takes them so, without a list of
   * arguments per candidate; the generated engine runs the checks in one loop.
   */
  candidates: (c: RunCtx, domain: Value[], out: Value[]) => void;
  /** Its leading checks, and the domain of its one parameter (none for another number), as lowered: `sharedChecks.ts` compares actions' by them. */
  lowered: { checks: Check[]; domain: Expr | undefined };
  /** Ids of this action's choices by their one argument, made once (`choiceId`): listing names every candidate. */
  ids: Map<Value, string>;
  body: BlockCode;
  /**
   * The body as a driven choice of it runs it (`drivenPick`, and the first pick of a drive through
   * `playoutApplyListed`), its value one the listing just found by
   * `candidates`: the body's block, whose generated whole passes over the leading `require`s that
   * listing checked where that is exact (codegen/emitFlow.ts `pickedBlock`); else the body itself.
   */
  drivenBody: BlockCode;
  origin: Origin;
}

export interface TriggerCode {
  card?: Binding;
  slots: number;
  when?: ExprFn;
  body: BlockCode;
  origin: Origin;
}

export interface ModifierCode {
  card?: Binding;
  anyone: boolean;
  slots: number;
  when?: ExprFn;
  value: ExprFn;
  origin: Origin;
}

export interface PipelineCode {
  slots: number;
  params: number;
  /** The most locals a modifier of it needs. */
  modifierSlots: number;
  /** Contexts for its base and for its modifiers, made once and used again (`exprCtx`). */
  free: RunCtx[];
  modifierFree: RunCtx[];
  base: ExprFn;
  min?: ExprFn;
  max?: ExprFn;
  modifiers: ModifierCode[];
}

export interface ProcCode {
  slots: number;
  body: BlockCode;
}

export interface FnCode {
  slots: number;
  /** Contexts for its body, made once and used again (`exprCtx`). */
  free: RunCtx[];
  body: ExprFn;
}
