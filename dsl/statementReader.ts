import type { IToken, TokenType } from 'chevrotain';
import type * as A from './ast.ts';
import { ExpressionReader, NOT_READ } from './expressionReader.ts';
import { contextualWords } from './language.ts';
import * as T from './lexer.ts';
import { span, tokSpan } from './spans.ts';

const K = T.keywords;

/**
 * A whole rules text read by plain recursive descent: the declarations and statements as the
 * grammar's rules in dsl/parser.ts read them, the expressions as `ExpressionReader` does, the same
 * trees. Like the expression reader it recovers from nothing: at the first token out of place it
 * throws `NOT_READ`, and the grammar reads the text again and words its errors.
 */
export class StatementReader extends ExpressionReader {
  program(): A.Program {
    const decls: A.Decl[] = [];
    while (declarationStarts.has(this.tokens.peek(1).tokenType)) decls.push(this.decl());
    return { decls };
  }

  private decl(): A.Decl {
    const override = this.tokens.peek(1).tokenType === K.override ? this.tokens.take() : undefined;
    const read = declarations.get(this.tokens.peek(1).tokenType);
    if (!read) throw NOT_READ;
    const d = read.call(this);
    return override ? { ...d, override: true, span: span(override, d) } : d;
  }

  private name(): IToken {
    return this.expect(T.Ident);
  }

  private params(): A.Param[] {
    const ps: A.Param[] = [];
    this.expect(T.LParen);
    if (this.tokens.peek(1).tokenType === T.Ident) {
      ps.push(this.param());
      while (this.tokens.peek(1).tokenType === T.Comma) {
        this.tokens.take();
        ps.push(this.param());
      }
    }
    this.expect(T.RParen);
    return ps;
  }

  private param(): A.Param {
    const n = this.name();
    this.expect(T.Colon);
    const type = this.typeRef();
    let domain: A.Expr | undefined;
    if (this.tokens.peek(1).tokenType === K.in) {
      this.tokens.take();
      domain = this.range();
    }
    return { name: n.image, type, domain, span: tokSpan(n) };
  }

  private binds(): Array<{ name: string; span: A.Span }> {
    const bs: Array<{ name: string; span: A.Span }> = [];
    if (this.tokens.peek(1).tokenType !== T.LParen) return bs;
    this.tokens.take();
    if (this.tokens.peek(1).tokenType === T.Ident) {
      bs.push(this.named());
      while (this.tokens.peek(1).tokenType === T.Comma) {
        this.tokens.take();
        bs.push(this.named());
      }
    }
    this.expect(T.RParen);
    return bs;
  }

  /** A name, with its place. */
  private named(): { name: string; span: A.Span } {
    const n = this.name();
    return { name: n.image, span: tokSpan(n) };
  }

  /** One name or more, separated by commas. */
  private names(): Array<{ name: string; span: A.Span }> {
    const names = [this.named()];
    while (this.tokens.peek(1).tokenType === T.Comma) {
      this.tokens.take();
      names.push(this.named());
    }
    return names;
  }

  private roles(): A.RoleList {
    if (this.tokens.peek(1).tokenType !== K.while) return { names: [] };
    this.tokens.take();
    return { names: this.names() };
  }

  private typeRef(): A.TypeRef {
    const n = this.name();
    let element: A.TypeRef | undefined;
    let last: IToken = n;
    if (this.tokens.peek(1).tokenType === T.Lt) {
      this.tokens.take();
      this.enter();
      element = this.typeRef();
      this.depth--;
      last = this.expect(T.Gt);
    }
    let optional = false;
    if (this.tokens.peek(1).tokenType === T.Question) {
      last = this.tokens.take();
      optional = true;
    }
    return { name: n.image, element, optional, span: span(n, last) };
  }

  private optionalString(): A.StringExpr | undefined {
    return this.tokens.peek(1).tokenType === T.StringLit ? this.string() : undefined;
  }

  private stringLit(): A.StringExpr {
    if (this.tokens.peek(1).tokenType !== T.StringLit) throw NOT_READ;
    return this.string();
  }

  /** `when …`, if it follows. */
  private when(): A.Expr | undefined {
    if (this.tokens.peek(1).tokenType !== K.when) return undefined;
    this.tokens.take();
    return this.expression();
  }

  eventDecl(): A.EventDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const params = this.tokens.peek(1).tokenType === T.LParen ? this.params() : [];
    return { kind: 'event', name: n.image, nameSpan: tokSpan(n), params, span: span(kw, n) };
  }

  fnDecl(): A.FnDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const params = this.params();
    this.expect(T.Colon);
    const returns = this.typeRef();
    this.expect(T.Assign);
    const body = this.expression();
    return { kind: 'fn', name: n.image, nameSpan: tokSpan(n), params, returns, body, span: span(kw, body) };
  }

  pipelineDecl(): A.PipelineDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const params = this.params();
    this.expect(T.Colon);
    const returns = this.typeRef();
    let min: A.Expr | undefined;
    let max: A.Expr | undefined;
    if (this.tokens.peek(1).tokenType === K.min) {
      this.tokens.take();
      min = this.additive();
    }
    if (this.tokens.peek(1).tokenType === K.max) {
      this.tokens.take();
      max = this.additive();
    }
    this.expect(T.Assign);
    const body = this.expression();
    return { kind: 'pipeline', name: n.image, nameSpan: tokSpan(n), params, returns, min, max, body, span: span(kw, body) };
  }

  checkDecl(): A.CheckDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const params = this.params();
    const body = this.block();
    return { kind: 'check', name: n.image, nameSpan: tokSpan(n), params, body, span: span(kw, body) };
  }

  procDecl(): A.ProcDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const params = this.params();
    const body = this.block();
    return { kind: 'proc', name: n.image, nameSpan: tokSpan(n), params, body, span: span(kw, body) };
  }

  actionDecl(): A.ActionDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const params = this.tokens.peek(1).tokenType === T.LParen ? this.params() : [];
    const label = this.optionalString();
    let limit: A.ActionDecl['limit'];
    if (this.tokens.peek(1).tokenType === K.limit) {
      const l = this.tokens.take();
      const times = this.expect(T.NumberLit);
      this.expect(K.per);
      const next = this.tokens.peek(1);
      if (next.tokenType !== K.turn && !(next.tokenType === T.Ident && (contextualWords.limitPer as readonly string[]).includes(next.image))) throw NOT_READ;
      const per = this.tokens.take();
      limit = { times: Number(times.image), per: per.image as 'turn' | 'game', span: span(l, per) };
    }
    let timing: Pick<A.ActionDecl, 'with' | 'anytime'> | undefined;
    const next = this.tokens.peek(1).tokenType;
    if (next === K.with) {
      this.tokens.take();
      const w = this.name();
      timing = { with: { name: w.image, span: tokSpan(w) } };
    } else if (next === K.anytime) timing = { anytime: tokSpan(this.tokens.take()) };
    const roles = this.roles();
    const body = this.block();
    return { kind: 'action', name: n.image, nameSpan: tokSpan(n), params, label, limit, with: timing?.with, anytime: timing?.anytime, roles, body, span: span(kw, body) };
  }

  onDecl(): A.OnDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const binds = this.binds();
    const when = this.when();
    const roles = this.roles();
    const body = this.block();
    return { kind: 'on', name: n.image, nameSpan: tokSpan(n), binds, when, roles, body, span: span(kw, body) };
  }

  modifyDecl(): A.ModifyDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const binds = this.binds();
    let anyone = false;
    if (this.tokens.peek(1).tokenType === K.by) {
      this.tokens.take();
      this.word(contextualWords.anyone);
      anyone = true;
    }
    const roles = this.roles();
    const when = this.when();
    this.expect(T.Assign);
    const value = this.expression();
    return { kind: 'modify', name: n.image, nameSpan: tokSpan(n), binds, anyone, roles, when, value, span: span(kw, value) };
  }

  setupDecl(): A.SetupDecl {
    const kw = this.tokens.take();
    const body = this.block();
    return { kind: 'setup', name: 'setup', nameSpan: tokSpan(kw), body, span: span(kw, body) };
  }

  guardDecl(): A.GuardDecl {
    const kw = this.tokens.take();
    const n = this.name();
    const params = this.params();
    const fields: A.GuardDecl['fields'] = [];
    if (this.tokens.peek(1).tokenType === K.of) {
      this.tokens.take();
      fields.push(...this.names());
    }
    const when = this.when();
    const body = this.block();
    return { kind: 'guard', name: n.image, nameSpan: tokSpan(n), params, fields, when, body, span: span(kw, body) };
  }

  invariantDecl(): A.InvariantDecl {
    const kw = this.tokens.take();
    const message = this.stringLit();
    this.expect(T.Assign);
    const cond = this.expression();
    return { kind: 'invariant', name: 'invariant', nameSpan: tokSpan(kw), message, cond, span: span(kw, cond) };
  }

  flowDecl(): A.FlowDecl {
    const kw = this.tokens.take();
    const body = this.block();
    return { kind: 'flow', name: 'flow', nameSpan: tokSpan(kw), body, span: span(kw, body) };
  }

  /** A word that is no keyword but means something here (`from`, `anyone`). */
  private word(word: string): void {
    const t = this.tokens.peek(1);
    if (t.tokenType !== T.Ident || t.image !== word) throw NOT_READ;
    this.tokens.take();
  }

  private block(): A.Block {
    const open = this.expect(T.LBrace);
    const stmts: A.Stmt[] = [];
    while (this.tokens.peek(1).tokenType !== T.RBrace) stmts.push(this.stmt());
    const close = this.tokens.take();
    return { stmts, span: span(open, close) };
  }

  private stmt(): A.Stmt {
    const read = statements.get(this.tokens.peek(1).tokenType);
    return read ? read.call(this) : this.assignOrCall();
  }

  letStmt(): A.LetStmt {
    const kw = this.tokens.take();
    const n = this.name();
    this.expect(T.Assign);
    const value = this.expression();
    return { kind: 'let', name: n.image, nameSpan: tokSpan(n), value, span: span(kw, value) };
  }

  ifStmt(): A.IfStmt {
    const kw = this.tokens.take();
    const cond = this.expression();
    const then = this.block();
    let elseBlock: A.Block | undefined;
    if (this.tokens.peek(1).tokenType === K.else) {
      this.tokens.take();
      if (this.tokens.peek(1).tokenType === K.if) {
        const nested = this.ifStmt();
        elseBlock = { stmts: [nested], span: nested?.span };
      } else elseBlock = this.block();
    }
    return { kind: 'if', cond, then, else: elseBlock, span: span(kw, elseBlock ?? then) };
  }

  forStmt(): A.ForStmt {
    const kw = this.tokens.take();
    const n = this.name();
    this.expect(K.in);
    const source = this.expression();
    const body = this.block();
    return { kind: 'for', name: n.image, nameSpan: tokSpan(n), source, body, span: span(kw, body) };
  }

  repeatStmt(): A.RepeatStmt {
    const kw = this.tokens.take();
    const times = this.expression();
    const body = this.block();
    return { kind: 'repeat', times, body, span: span(kw, body) };
  }

  loopStmt(): A.LoopStmt {
    const kw = this.tokens.take();
    this.expect(K.max);
    const max = this.expression();
    const body = this.block();
    return { kind: 'loop', max, body, span: span(kw, body) };
  }

  breakStmt(): A.Stmt {
    return { kind: 'break' as const, span: tokSpan(this.tokens.take()) };
  }

  finishStmt(): A.Stmt {
    return { kind: 'finish' as const, span: tokSpan(this.tokens.take()) };
  }

  requireStmt(): A.RequireStmt {
    const kw = this.tokens.take();
    const cond = this.expression();
    let reason: A.StringExpr | undefined;
    if (this.tokens.peek(1).tokenType === K.else) {
      this.tokens.take();
      reason = this.stringLit();
    }
    // The grammar rejects a reason without its `else`.
    if (!reason && this.tokens.peek(1).tokenType === T.StringLit) throw NOT_READ;
    return { kind: 'require', cond, reason, span: span(kw, reason ?? cond) };
  }

  chooseStmt(): A.ChooseStmt {
    const kw = this.tokens.take();
    let optional = false;
    if (this.tokens.peek(1).tokenType === K.optional) {
      this.tokens.take();
      optional = true;
    }
    const n = this.name();
    this.expect(K.in);
    const source = this.expression();
    let by: A.Expr | undefined;
    if (this.tokens.peek(1).tokenType === K.by) {
      this.tokens.take();
      by = this.additive();
    }
    const prompt = this.optionalString();
    const body = this.block();
    return { kind: 'choose', optional, name: n.image, nameSpan: tokSpan(n), source, by, prompt, body, span: span(kw, body) };
  }

  offerStmt(): A.OfferStmt {
    const kw = this.tokens.take();
    const player = this.additive();
    this.expect(T.Colon);
    const actions = this.names();
    const last = this.tokens.peek(0);
    return { kind: 'offer', player, actions, span: span(kw, last) };
  }

  emitStmt(): A.EmitStmt {
    const kw = this.tokens.take();
    const n = this.name();
    const args = this.tokens.peek(1).tokenType === T.LParen ? this.args() : { args: [], close: n };
    return { kind: 'emit', event: n.image, eventSpan: tokSpan(n), args: args.args, span: span(kw, args.close) };
  }

  logStmt(): A.LogStmt {
    const kw = this.tokens.take();
    const text = this.stringLit();
    return { kind: 'log', text, span: span(kw, text) };
  }

  resolvingStmt(): A.ResolvingStmt {
    const kw = this.tokens.take();
    const body = this.block();
    return { kind: 'resolving', body, span: span(kw, body) };
  }

  turnStmt(): A.TurnStmt {
    const kw = this.tokens.take();
    const player = this.additive();
    const body = this.block();
    return { kind: 'turn', player, body, span: span(kw, body) };
  }

  shuffleStmt(): A.ShuffleStmt {
    const kw = this.tokens.take();
    const target = this.postfix();
    return { kind: 'shuffle', target, span: span(kw, target) };
  }

  /** `top` or `bottom`. */
  private end(): 'top' | 'bottom' {
    const t = this.tokens.peek(1).tokenType;
    if (t !== K.top && t !== K.bottom) throw NOT_READ;
    this.tokens.take();
    return t === K.top ? 'top' : 'bottom';
  }

  drawStmt(): A.DrawStmt {
    const kw = this.tokens.take();
    const n = this.name();
    this.word(contextualWords.from);
    let end: 'top' | 'bottom' = 'top';
    const t = this.tokens.peek(1).tokenType;
    if (t === K.top || t === K.bottom) {
      end = this.end();
      this.expect(K.of);
    }
    const from = this.postfix();
    return { kind: 'draw', name: n.image, nameSpan: tokSpan(n), from, end, span: span(kw, from) };
  }

  putStmt(): A.PutStmt {
    const kw = this.tokens.take();
    const value = this.additive();
    this.expect(K.on);
    const end = this.end();
    this.expect(K.of);
    const into = this.postfix();
    return { kind: 'put', value, end, into, span: span(kw, into) };
  }

  removeStmt(): A.RemoveStmt {
    const kw = this.tokens.take();
    const value = this.additive();
    this.word(contextualWords.from);
    const from = this.postfix();
    return { kind: 'remove', value, from, span: span(kw, from) };
  }

  reachStmt(): A.ReachStmt {
    const kw = this.tokens.take();
    const target = this.postfix();
    return { kind: 'reach', target, span: span(kw, target) };
  }

  private assignOrCall(): A.Stmt {
    const target = this.or();
    let assigned: A.ExprStmt['assigned'];
    const t = this.tokens.peek(1).tokenType;
    if (t === T.Assign || t === T.PlusAssign || t === T.MinusAssign) {
      const op = this.tokens.take();
      const value = this.expression();
      assigned = { op: op.image as A.AssignOp, value };
    }
    if (assigned) {
      const whole = span(target, assigned.value);
      return target.kind === 'field' ? { kind: 'assign', target, ...assigned, span: whole } : { kind: 'expr', expr: target, assigned, span: whole };
    }
    return target.kind === 'call' ? { kind: 'call', call: target, span: target.span } : { kind: 'expr', expr: target, span: target?.span ?? { start: 0, end: 0 } };
  }
}

type Read<T> = (this: StatementReader) => T;
const P = StatementReader.prototype;

const declarations = new Map<TokenType, Read<A.Decl>>([
  [K.event, P.eventDecl], [K.fn, P.fnDecl], [K.pipeline, P.pipelineDecl], [K.check, P.checkDecl], [K.proc, P.procDecl], [K.action, P.actionDecl],
  [K.on, P.onDecl], [K.modify, P.modifyDecl], [K.setup, P.setupDecl], [K.flow, P.flowDecl], [K.guard, P.guardDecl], [K.invariant, P.invariantDecl],
]);
const declarationStarts = new Set<TokenType>([K.override, ...declarations.keys()]);

const statements = new Map<TokenType, Read<A.Stmt>>([
  [K.let, P.letStmt], [K.if, P.ifStmt], [K.for, P.forStmt], [K.repeat, P.repeatStmt], [K.loop, P.loopStmt], [K.break, P.breakStmt], [K.finish, P.finishStmt],
  [K.require, P.requireStmt], [K.choose, P.chooseStmt], [K.offer, P.offerStmt], [K.emit, P.emitStmt], [K.log, P.logStmt], [K.turn, P.turnStmt],
  [K.resolving, P.resolvingStmt], [K.shuffle, P.shuffleStmt], [K.draw, P.drawStmt], [K.put, P.putStmt], [K.remove, P.removeStmt], [K.reach, P.reachStmt],
]);
