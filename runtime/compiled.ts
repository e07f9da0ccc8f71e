import type { Table } from './table.ts';
import type { EntityInfo, KindInfo, Value } from './types.ts';

/**
 * What the compiler hands over: the pack's data as tables, and every rule as a tree of the runtime's
 * operations. The tree is plain data (no closures), so the compiler holds no code that runs rules;
 * the runtime links it into handlers when a game starts (`link.ts`). Every table keyed by the
 * pack's names is a `Table` (no prototype).
 */
export interface CompiledPack {
  id: string;
  version: string;
  name: Record<string, string>;
  languages: string[];
  players: { min: number; max: number };
  kinds: Table<KindInfo>;
  entities: Table<EntityInfo>;
  /**
   * Entity id → the state fields its item gives a value → that value: where its record starts
   * instead of the field's default. Apart from `props`, as state is the game's to change and props
   * never change; only the entities that give one are here.
   */
  starts: Table<Table<Value>>;
  byKind: Table<string[]>;
  enums: Table<string[]>;
  dice: Table<Value[]>;
  /** Symmetric adjacency by entity id, for kinds with a graph. */
  links: Table<string[]>;
  /** Hidden state fields by kind. */
  hidden: Table<string[]>;
  /** Language → a word of the pack's texts → its forms by plural category ("token(s)" → one: token, other: tokens). */
  plurals?: Table<Table<Table<string>>>;
  /** Kind of every entity id, players and `game` included. */
  kindOf(id: string): string | undefined;
  rules: Rules;
  /** Compiles an expression of the pack's language against its declarations, outside any rule (a scenario's `eval:`). */
  expression?(source: string): CompiledExpression;
}

/** An expression compiled on its own: run it with `slots` locals (`evaluate`), or the problems that stop it, at offsets into its text. */
export type CompiledExpression =
  | { ok: true; code: Expr; slots: number; type: string }
  | { ok: false; problems: Array<{ code: string; message: string; hint?: string; start: number; end: number }> };

/** Every rule of the pack, as operations. */
export interface Rules {
  /** Kind name → role name → the players holding a card of that kind in that role. */
  roles: Table<Table<RoleDef>>;
  actions: Table<ActionDef[]>;
  /** Triggers by event, the game's own first. */
  triggers: Table<TriggerDef[]>;
  pipelines: Table<PipelineDef>;
  procs: Table<ProcDef>;
  fns: Table<FnDef>;
  /** Run in order when a game starts. */
  setups: BodyDef[];
  /** The game itself, after the setups; the game is over when it ends. */
  flow?: BodyDef;
  /** States no game may reach. */
  invariants: Array<{ message: Expr; holds: Expr; slots: number; rule: string }>;
  score?: Expr;
  tiebreak?: Expr;
  /** A player's expected final score mid-game (`scoring: estimate`), for bots that stop looking ahead. */
  estimate?: Expr;
  /**
   * By action name (`scoring: prefer`): how much a bot likes a choice of that action, read with `me`
   * the player asked and the choice's arguments in the first `slots` locals. No state is changed.
   */
  prefer?: Table<{ value: Expr; slots: number }>;
}

/** Where a rule was written, as `file:line`, plus a short name such as `card: on event` (the card's id, then the rule). */
export interface Origin {
  where: string;
  rule: string;
}

/** A card's rule applies for the players its kind's role expressions list. */
export interface CardBinding {
  card: string;
  /** Role names; empty means the kind's first role. */
  roles: string[];
}

/** A role's players: a `list<player>`, or (`single`) one player or none. */
export interface RoleDef {
  expr: Expr;
  single: boolean;
}

export interface ActionDef {
  name: string;
  /** The card that adds this action; absent for the game's own actions. */
  card?: CardBinding;
  /** Offered together with this game action. */
  with?: string;
  /** Offered to its holders (every player, for a game action) at every offer, whoever is asked. */
  anytime: boolean;
  params: Array<{ name: string; type: string; domain: Expr }>;
  slots: number;
  label?: Expr;
  limit?: { times: number; per: 'turn' | 'game' };
  /** The leading `require`s and the `let`s they read: they decide legality without changing the game. */
  checks: Check[];
  body: Block;
  origin: Origin;
}

export type Check = { slot: number; value: Expr } | { cond: Expr; reason: Expr; rule?: string };

export interface TriggerDef {
  card?: CardBinding;
  slots: number;
  when?: Expr;
  body: Block;
  origin: Origin;
}

export interface ModifierDef {
  card?: CardBinding;
  anyone: boolean;
  slots: number;
  when?: Expr;
  value: Expr;
  origin: Origin;
}

export interface PipelineDef {
  slots: number;
  params: number;
  base: Expr;
  min?: Expr;
  max?: Expr;
  modifiers: ModifierDef[];
}

export interface ProcDef {
  slots: number;
  body: Block;
}

export interface FnDef {
  slots: number;
  body: Expr;
}

export interface BodyDef {
  slots: number;
  body: Block;
}

/** Blocks are numbered across the pack: a suspended game's frames name them by number. */
export interface Block {
  id: number;
  stmts: Stmt[];
  /** `file:line` of each statement, named when a budget or a bad number stops it. */
  lines: Array<string | undefined>;
}

export type BinaryOp = 'and' | 'or' | '==' | '!=' | 'in' | '<' | '<=' | '>' | '>=' | '*' | '/' | '%' | '+' | '-';

/** Operations that give a value. */
export type Expr =
  | { op: 'const'; value: Value }
  /** A text with `{…}` parts, each shown as a player reads it. */
  | { op: 'text'; parts: Array<string | Expr> }
  | { op: 'local'; slot: number }
  /** A name the running rule gives a meaning: `me`, `self`, `holder`, `it`, `value`, `players`, `current`. */
  | { op: 'me' | 'self' | 'holder' | 'it' | 'value' | 'players' | 'current' }
  /** A field of an entity (`prop`: in the pack; `field`: in the state); through none, `empty`. */
  | { op: 'prop' | 'field'; target: Expr; field: string; empty: Value }
  | { op: 'not' | 'negate'; operand: Expr }
  | { op: BinaryOp; left: Expr; right: Expr }
  /** `+` and `-` of lists, `+` of texts. */
  | { op: 'concat' | 'without' | 'join'; left: Expr; right: Expr }
  | { op: 'if'; cond: Expr; then: Expr; else: Expr }
  /** `slot` is -1 for a `where` that names no variable (it reads `it`). */
  | { op: 'where'; source: Expr; cond: Expr; slot: number }
  | { op: 'list'; items: Expr[] }
  | { op: 'range'; from: Expr; to: Expr }
  | { op: 'fn' | 'pipeline'; name: string; args: Expr[] }
  /** A built-in function (`runtime/builtins.ts`); `die` for `roll`, `rule` the `file:line` of the call. */
  | { op: 'builtin'; name: string; args: Expr[]; die?: string; rule?: string };

/** An entity's record in the state, and how to name it when it is none. */
export interface RecordRef {
  target: Expr;
  what: string;
}

/** A list field of a record, `what` naming it (`game.deck`). */
export interface ListRef {
  record: RecordRef;
  field: string;
  what: string;
}

/** Operations that change the game or steer the rule. */
export type Stmt =
  | { op: 'let'; slot: number; value: Expr }
  | { op: '=' | '+=' | '-='; record: RecordRef; field: string; value: Expr }
  | { op: 'if'; cond: Expr; then: Block; else?: Block }
  | { op: 'for'; slot: number; source: Expr; body: Block }
  /** `repeat n` and `loop max n`. */
  | { op: 'repeat'; times: Expr; body: Block }
  | { op: 'break' | 'finish' }
  | { op: 'require'; cond: Expr; reason: Expr; rule?: string }
  | { op: 'choose'; source: Expr; by?: Expr; prompt?: Expr; body: Block; slot: number; optional: boolean; rule?: string }
  | { op: 'offer'; player: Expr; actions: string[] }
  | { op: 'emit'; event: string; args: Expr[] }
  | { op: 'log'; text: Expr; rule?: string }
  | { op: 'resolving'; body: Block }
  | { op: 'turn'; player: Expr; body: Block; rule?: string }
  | { op: 'shuffle'; list: ListRef }
  | { op: 'draw'; list: ListRef; slot: number; fromTop: boolean }
  | { op: 'put'; list: ListRef; value: Expr; onTop: boolean }
  | { op: 'remove'; list: ListRef; value: Expr }
  | { op: 'call'; name: string; args: Expr[] };
