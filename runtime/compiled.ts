import type { EntityInfo, GameState, KindInfo, Value } from './types.ts';

/** Signals a statement returns to its block. */
export const NORMAL = 0;
export const BREAK = 1;
export const SUSPEND = 2;
export const FINISH = 3;
export type Signal = 0 | 1 | 2 | 3;

/** What a lowered rule sees while it runs. `it` and `value` are set around `where` and `modify`. */
export interface RunCtx {
  st: GameState;
  pack: CompiledPack;
  env: Value[];
  me: string | null;
  self: string | null;
  holder: string | null;
  it: Value;
  value: Value;
  /** Index of the choice being applied, for the log. */
  step: number;
  /** Inside a `resolving` block: no `anytime` action may be taken at a prompt asked here. */
  resolving?: boolean;
}

export type ExprFn = (c: RunCtx) => Value;
export type StmtFn = (c: RunCtx) => Signal;

export interface BlockCode {
  id: number;
  stmts: StmtFn[];
}

/** Where a rule was written, as `file:line`, plus a short name such as `orcs: on conquered`. */
export interface Origin {
  where: string;
  rule: string;
}

/** A card's rule applies for the players its kind's role expressions list. */
export interface CardBinding {
  card: string;
  /** Role names; empty means the kind's first role. */
  roles: string[];
  /** `card/roles`, made once: the key of the holders cached while listing choices. */
  key?: string;
}

export interface ActionCode {
  name: string;
  /** The card that adds this action; absent for the game's own actions. */
  card?: CardBinding;
  /** Offered together with this game action. */
  with?: string;
  /** Offered to its holders (every player, for a game action) at every offer, whoever is asked. */
  anytime: boolean;
  params: Array<{ name: string; domain: ExprFn; type: string }>;
  slots: number;
  label?: ExprFn;
  limit?: { times: number; per: 'turn' | 'game' };
  /** The leading `require`s: why the action is refused (an empty reason unless `explain`), or null. */
  pre: (c: RunCtx, explain?: boolean) => { reason: string; rule?: string } | null;
  body: BlockCode;
  origin: Origin;
}

export interface TriggerCode {
  card?: CardBinding;
  slots: number;
  when?: ExprFn;
  body: BlockCode;
  origin: Origin;
}

export interface ModifierCode {
  card?: CardBinding;
  anyone: boolean;
  slots: number;
  when?: ExprFn;
  value: ExprFn;
  origin: Origin;
}

export interface PipelineCode {
  slots: number;
  params: number;
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
  body: ExprFn;
}

/** The compiler's output: the pack's data plus every rule lowered to a handler. */
export interface CompiledPack {
  id: string;
  version: string;
  name: Record<string, string>;
  languages: string[];
  players: { min: number; max: number };
  kinds: Record<string, KindInfo>;
  entities: Record<string, EntityInfo>;
  byKind: Record<string, string[]>;
  enums: Record<string, string[]>;
  dice: Record<string, Value[]>;
  /** Symmetric adjacency by entity id, for kinds with a graph. */
  links: Record<string, string[]>;
  /** Kind name → role name → players holding a card of that kind in that role. */
  roles: Record<string, Record<string, (c: RunCtx) => string[]>>;
  blocks: BlockCode[];
  actions: Record<string, ActionCode[]>;
  /** Game action → card actions offered with it. */
  companions: Record<string, ActionCode[]>;
  /** Actions offered at every offer to their holders, whoever is asked (`anytime`). */
  anytime: ActionCode[];
  triggers: Record<string, TriggerCode[]>;
  pipelines: Record<string, PipelineCode>;
  procs: Record<string, ProcCode>;
  fns: Record<string, FnCode>;
  /** Run in order when a game starts. */
  setups: Array<{ body: BlockCode; slots: number }>;
  /** The game itself, after the setups; the game is over when it ends. */
  flow?: { body: BlockCode; slots: number };
  /** States no game may reach; `violations` lists those a state breaks. */
  invariants: Array<{ message: ExprFn; holds: ExprFn; slots: number; rule: string }>;
  score?: ExprFn;
  tiebreak?: ExprFn;
  /** Hidden state fields by kind. */
  hidden: Record<string, string[]>;
  /** Kind of every entity id, players and `game` included. */
  kindOf(id: string): string | undefined;
  /** Compiles an expression of the pack's language against its declarations, outside any rule (a scenario's `eval:`). */
  expression?(source: string): CompiledExpression;
}

/** An expression compiled on its own: run it with `slots` locals, or the problems that stop it, at offsets into its text. */
export type CompiledExpression =
  | { ok: true; fn: ExprFn; slots: number; type: string }
  | { ok: false; problems: Array<{ code: string; message: string; hint?: string; start: number; end: number }> };
