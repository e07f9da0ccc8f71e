/**
 * The typed syntax tree of the rules language. The parser builds it; the compiler's passes
 * (resolve, check, lower) read it and never change its shape. Spans are offsets into the rules
 * text they came from; the compiler's source map turns them into file:line:column.
 */
export interface Span {
  start: number;
  end: number;
}

/** The keys of a tree's nodes that hold a `Span` (a position, never a node): walks by shape skip them. */
export const spanKeys: ReadonlySet<string> = new Set(['span', 'nameSpan', 'fieldSpan', 'calleeSpan', 'eventSpan', 'anytime']);

export interface Node {
  span: Span;
}

// ─── Types as written ───────────────────────────────────────────────────────

export interface TypeRef extends Node {
  name: string;
  /** `list<region>` */
  element?: TypeRef;
  optional: boolean;
}

// ─── Expressions ────────────────────────────────────────────────────────────

export type Expr =
  | NumberExpr
  | StringExpr
  | BoolExpr
  | NoneExpr
  | NameExpr
  | FieldExpr
  | CallExpr
  | UnaryExpr
  | BinaryExpr
  | IfExpr
  | WhereExpr
  | ListExpr
  | RangeExpr;

export interface NumberExpr extends Node {
  kind: 'number';
  value: number;
}
export interface StringExpr extends Node {
  kind: 'string';
  /** Text with `{expr}` holes; each hole is parsed into `parts`. */
  parts: Array<string | Expr>;
  /** Holes that hold no value (`{1 +}`, a `{` never closed): left out of `parts`, reported by the checker. */
  badHoles?: BadHole[];
}
/** A `{` never closed (the rest of the text would be swallowed), or a hole whose words are no value. */
export type BadHole = Node & ({ unclosed: true } | { unclosed: false; message: string });
export interface BoolExpr extends Node {
  kind: 'bool';
  value: boolean;
}
export interface NoneExpr extends Node {
  kind: 'none';
}
export interface NameExpr extends Node {
  kind: 'name';
  name: string;
}
export interface FieldExpr extends Node {
  kind: 'field';
  target: Expr;
  field: string;
  fieldSpan: Span;
}
export interface CallExpr extends Node {
  kind: 'call';
  callee: string;
  calleeSpan: Span;
  args: Expr[];
}
export interface UnaryExpr extends Node {
  kind: 'unary';
  op: '-' | 'not';
  operand: Expr;
}
export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or' | 'in';
export interface BinaryExpr extends Node {
  kind: 'binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
}
export interface IfExpr extends Node {
  kind: 'if';
  cond: Expr;
  then: Expr;
  else: Expr;
}
/**
 * `regions where terrain == hills`: inside the condition `it` is the element and its fields are bare
 * names. `players where p: count(regions where owner == p) > 1` also names the element, so a `where`
 * inside the condition can still reach it.
 */
export interface WhereExpr extends Node {
  kind: 'where';
  source: Expr;
  name?: string;
  nameSpan?: Span;
  cond: Expr;
}
export interface ListExpr extends Node {
  kind: 'list';
  items: Expr[];
}
export interface RangeExpr extends Node {
  kind: 'range';
  from: Expr;
  to: Expr;
}

// ─── Statements ─────────────────────────────────────────────────────────────

export type Stmt =
  | LetStmt
  | AssignStmt
  | IfStmt
  | ForStmt
  | RepeatStmt
  | LoopStmt
  | BreakStmt
  | RequireStmt
  | ChooseStmt
  | OfferStmt
  | EmitStmt
  | LogStmt
  | TurnStmt
  | ResolvingStmt
  | ShuffleStmt
  | DrawStmt
  | PutStmt
  | RemoveStmt
  | FinishStmt
  | CallStmt
  | ExprStmt
  | ReachStmt;

export interface Block extends Node {
  stmts: Stmt[];
}

export interface LetStmt extends Node {
  kind: 'let';
  name: string;
  nameSpan: Span;
  value: Expr;
}
export type AssignOp = '=' | '+=' | '-=';
export interface AssignStmt extends Node {
  kind: 'assign';
  target: FieldExpr;
  op: AssignOp;
  value: Expr;
}
export interface IfStmt extends Node {
  kind: 'if';
  cond: Expr;
  then: Block;
  else?: Block;
}
export interface ForStmt extends Node {
  kind: 'for';
  name: string;
  nameSpan: Span;
  source: Expr;
  body: Block;
}
export interface RepeatStmt extends Node {
  kind: 'repeat';
  times: Expr;
  body: Block;
}
/** `loop max 50 { … break }`: the bound is part of the syntax so no rule can loop forever. */
export interface LoopStmt extends Node {
  kind: 'loop';
  max: Expr;
  body: Block;
}
export interface BreakStmt extends Node {
  kind: 'break';
}
/** `require c else "why"`; without a reason, `require canConquer(r)` applies a shared `check` (its `cond` is the call). */
export interface RequireStmt extends Node {
  kind: 'require';
  cond: Expr;
  reason?: StringExpr;
}
/** `choose r in regions where … by p "Place the aegis" { … }`: the player picks; the body runs with the pick. */
export interface ChooseStmt extends Node {
  kind: 'choose';
  optional: boolean;
  name: string;
  nameSpan: Span;
  source: Expr;
  by?: Expr;
  prompt?: StringExpr;
  body: Block;
}
/** `offer p: conquer, decline, pass`: the player takes one of these actions. */
export interface OfferStmt extends Node {
  kind: 'offer';
  player: Expr;
  actions: Array<{ name: string; span: Span }>;
}
export interface EmitStmt extends Node {
  kind: 'emit';
  event: string;
  eventSpan: Span;
  args: Expr[];
}
export interface LogStmt extends Node {
  kind: 'log';
  text: StringExpr;
}
/** `turn p { … }`: a player's turn; once-per-turn limits reset when it starts. */
export interface TurnStmt extends Node {
  kind: 'turn';
  player: Expr;
  body: Block;
}
/** `resolving { … }`: a card (or any effect) being resolved; no `anytime` action may be taken inside. */
export interface ResolvingStmt extends Node {
  kind: 'resolving';
  body: Block;
}
/** The pile of `shuffle`, `draw`, `put` and `remove` is any value as read; the checker requires a list field. */
export interface ShuffleStmt extends Node {
  kind: 'shuffle';
  target: Expr;
}
export interface DrawStmt extends Node {
  kind: 'draw';
  name: string;
  nameSpan: Span;
  from: Expr;
  end: 'top' | 'bottom';
}
export interface PutStmt extends Node {
  kind: 'put';
  value: Expr;
  end: 'top' | 'bottom';
  into: Expr;
}
export interface RemoveStmt extends Node {
  kind: 'remove';
  value: Expr;
  from: Expr;
}
export interface FinishStmt extends Node {
  kind: 'finish';
}
/** `reach r`: the guard of `r`'s kind applies before a card changes `r`. */
export interface ReachStmt extends Node {
  kind: 'reach';
  target: Expr;
}
export interface CallStmt extends Node {
  kind: 'call';
  call: CallExpr;
}
/**
 * A value written where a statement belongs: on its own (`3`, `r.owner`), or assigned to when it is
 * no field (`f() = 3`). The grammar reads it so the checker can say why it is no statement; the
 * lowering never meets one.
 */
export interface ExprStmt extends Node {
  kind: 'expr';
  expr: Expr;
  assigned?: { op: AssignOp; value: Expr };
}

// ─── Declarations ───────────────────────────────────────────────────────────

export interface Param extends Node {
  name: string;
  type: TypeRef;
  /** For action parameters: the set a player picks from; default every value of the type. */
  domain?: Expr;
}

export type Decl =
  | EventDecl
  | FnDecl
  | PipelineDecl
  | CheckDecl
  | ProcDecl
  | ActionDecl
  | OnDecl
  | ModifyDecl
  | SetupDecl
  | FlowDecl
  | GuardDecl
  | InvariantDecl;

export interface DeclBase extends Node {
  name: string;
  nameSpan: Span;
  /** `override proc dealColumn() …`: a pack that extends another replaces the base pack's declaration. */
  override?: boolean;
}
export interface EventDecl extends DeclBase {
  kind: 'event';
  params: Param[];
}
export interface FnDecl extends DeclBase {
  kind: 'fn';
  params: Param[];
  returns: TypeRef;
  body: Expr;
}
/** A value that cards adjust: base expression, then every applicable `modify`, then clamped. */
export interface PipelineDecl extends DeclBase {
  kind: 'pipeline';
  params: Param[];
  returns: TypeRef;
  min?: Expr;
  max?: Expr;
  body: Expr;
}
/** `check canConquer(r: region) { let … require … }`: legality checks shared by actions; no effects. */
export interface CheckDecl extends DeclBase {
  kind: 'check';
  params: Param[];
  body: Block;
}
export interface ProcDecl extends DeclBase {
  kind: 'proc';
  params: Param[];
  body: Block;
}
export interface ActionDecl extends DeclBase {
  kind: 'action';
  params: Param[];
  label?: StringExpr;
  limit?: { times: number; per: 'turn' | 'game'; span: Span };
  /** `with conquer`: offered whenever `conquer` is offered (how a card adds a move to the game's turn). */
  with?: { name: string; span: Span };
  /** `anytime`: offered to its holders at every offer, whoever is asked (a card playable "at any time"). */
  anytime?: Span;
  roles: RoleList;
  body: Block;
}
export interface OnDecl extends DeclBase {
  kind: 'on';
  /** Names bound to the event's parameters, in order. */
  binds: Array<{ name: string; span: Span }>;
  when?: Expr;
  roles: RoleList;
  body: Block;
}
export interface ModifyDecl extends DeclBase {
  kind: 'modify';
  binds: Array<{ name: string; span: Span }>;
  anyone: boolean;
  roles: RoleList;
  when?: Expr;
  value: Expr;
}
export interface SetupDecl extends DeclBase {
  kind: 'setup';
  body: Block;
}
/**
 * `guard inReach(r: region) of tokens when r.owner != me { require … else "…" … }`: the one rule between any
 * card and an entity of a kind. Its leading requires say whether the entity may be reached (and are
 * the value of `inReach(r)`); the statements after them run when a card reaches it.
 */
export interface GuardDecl extends DeclBase {
  kind: 'guard';
  params: Param[];
  /** `of tokens, owner`: the state fields it protects; every state field when absent. */
  fields: Array<{ name: string; span: Span }>;
  when?: Expr;
  body: Block;
}
/** `invariant "the box holds them" = all(races, inBox(it) >= 0)`: a state no game may reach. */
export interface InvariantDecl extends DeclBase {
  kind: 'invariant';
  message: StringExpr;
  cond: Expr;
}
export interface FlowDecl extends DeclBase {
  kind: 'flow';
  body: Block;
}

/** `while active, decline`: the roles in which a card's rule works; empty means the kind's first role. */
export interface RoleList {
  names: Array<{ name: string; span: Span }>;
}

export interface Program {
  decls: Decl[];
}
