import { tokenMatcher, type IToken, type TokenType } from 'chevrotain';
import type * as A from './ast.ts';
import { splitHoles } from './holes.ts';
import * as T from './lexer.ts';
import type { SyntaxError } from './parser.ts';
import { span, tokSpan } from './spans.ts';

const K = T.keywords;

/** Where the reader takes its tokens from: the rules parser's own position in its input. */
export interface TokenSource {
  /** The token `k` ahead of the last one taken (the end-of-input token past the end). */
  peek(k: number): IToken;
  /** Takes the next token. */
  take(): IToken;
  /** Parses a text hole `{…}` of a quoted text, as the parser does. */
  holeParser?: (text: string, offset: number) => A.Expr | SyntaxError;
}

/**
 * Thrown by the reader where the text is not a well-formed expression: the text is then read again
 * by the parser's grammar, which recovers from the error and says what it is. One value, no stack.
 */
export const NOT_READ: unique symbol = Symbol('not read');

/**
 * How deep the reader goes (values in brackets, calls, `if`, `not` and `-` inside each other, and
 * types in types) before it leaves a text to the grammar. The grammar runs out of stack at a depth the reader would
 * not (about 150 brackets here), and there says so (RB0301); a text the reader took would instead
 * reach the nesting check (RB0302). Shipped rules stay under 40 levels in all.
 */
export const DIRECT_DEPTH = 32;

const comparisons = new Set<TokenType>([T.Eq, T.Neq, T.Le, T.Ge, T.Lt, T.Gt, K.in]);

/**
 * The expressions of rules text read by plain recursive descent, level by level as the grammar's
 * expression rules in dsl/parser.ts read them (`expression` down to `primary`), building the same
 * trees. The grammar's rules cost a dozen rule calls, each with its lookahead and recovery
 * bookkeeping, for every name or number read, and expressions are most of a pack's rules; this
 * reads them directly when the text is well formed (and dsl/statementReader.ts the rest). It
 * recovers from nothing: on the first token out of place it throws `NOT_READ`, and the parser reads
 * the whole text again with its grammar, so every syntax error is found and worded by the grammar
 * alone (test/parser-direct.test.ts holds the two to the same trees and the same errors over the
 * shipped packs' rules and mutations of them).
 */
export class ExpressionReader {
  /** Levels of expression open now; a reading that throws leaves it as it was, and `begin` starts it again. */
  protected depth = 0;

  constructor(protected readonly tokens: TokenSource) {}

  begin(): void {
    this.depth = 0;
  }

  expression(): A.Expr {
    this.enter();
    const e = this.tokens.peek(1).tokenType === K.if ? this.ifExpr() : this.where();
    this.depth--;
    return e;
  }

  protected enter(): void {
    if (++this.depth > DIRECT_DEPTH) throw NOT_READ;
  }

  private ifExpr(): A.IfExpr {
    const kw = this.tokens.take();
    const cond = this.expression();
    this.expect(K.then);
    const then = this.expression();
    this.expect(K.else);
    const otherwise = this.expression();
    return { kind: 'if', cond, then, else: otherwise, span: span(kw, otherwise) };
  }

  where(): A.Expr {
    let e = this.or();
    while (this.tokens.peek(1).tokenType === K.where) {
      this.tokens.take();
      let name: IToken | undefined;
      if (this.tokens.peek(1).tokenType === T.Ident && this.tokens.peek(2).tokenType === T.Colon) {
        name = this.tokens.take();
        this.tokens.take();
      }
      const cond = this.or();
      e = { kind: 'where', source: e, name: name?.image, nameSpan: name && tokSpan(name), cond, span: span(e, cond) } as A.WhereExpr;
    }
    return e;
  }

  or(): A.Expr {
    let e = this.and();
    while (this.tokens.peek(1).tokenType === K.or) {
      this.tokens.take();
      const r = this.and();
      e = { kind: 'binary', op: 'or', left: e, right: r, span: span(e, r) } as A.BinaryExpr;
    }
    return e;
  }

  private and(): A.Expr {
    let e = this.not();
    while (this.tokens.peek(1).tokenType === K.and) {
      this.tokens.take();
      const r = this.not();
      e = { kind: 'binary', op: 'and', left: e, right: r, span: span(e, r) } as A.BinaryExpr;
    }
    return e;
  }

  private not(): A.Expr {
    if (this.tokens.peek(1).tokenType !== K.not) return this.comparison();
    const kw = this.tokens.take();
    this.enter();
    const operand = this.not();
    this.depth--;
    return { kind: 'unary', op: 'not', operand, span: span(kw, operand) } as A.UnaryExpr;
  }

  private comparison(): A.Expr {
    const left = this.range();
    if (!comparisons.has(this.tokens.peek(1).tokenType)) return left;
    const op = this.tokens.take();
    const right = this.range();
    return { kind: 'binary', op: op.image as A.BinaryOp, left, right, span: span(left, right) } as A.BinaryExpr;
  }

  range(): A.Expr {
    const from = this.additive();
    if (this.tokens.peek(1).tokenType !== T.Range) return from;
    this.tokens.take();
    const to = this.additive();
    return { kind: 'range', from, to, span: span(from, to) } as A.RangeExpr;
  }

  additive(): A.Expr {
    let e = this.multiplicative();
    for (let t = this.tokens.peek(1).tokenType; t === T.Plus || t === T.Minus; t = this.tokens.peek(1).tokenType) {
      const op = this.tokens.take();
      const r = this.multiplicative();
      e = { kind: 'binary', op: op.image as A.BinaryOp, left: e, right: r, span: span(e, r) } as A.BinaryExpr;
    }
    return e;
  }

  private multiplicative(): A.Expr {
    let e = this.unary();
    for (let t = this.tokens.peek(1).tokenType; t === T.Star || t === T.Slash || t === T.Percent; t = this.tokens.peek(1).tokenType) {
      const op = this.tokens.take();
      const r = this.unary();
      e = { kind: 'binary', op: op.image as A.BinaryOp, left: e, right: r, span: span(e, r) } as A.BinaryExpr;
    }
    return e;
  }

  private unary(): A.Expr {
    if (this.tokens.peek(1).tokenType !== T.Minus) return this.postfix();
    const m = this.tokens.take();
    this.enter();
    const operand = this.unary();
    this.depth--;
    return { kind: 'unary', op: '-', operand, span: span(m, operand) } as A.UnaryExpr;
  }

  postfix(): A.Expr {
    let e = this.primary();
    while (this.tokens.peek(1).tokenType === T.Dot) {
      this.tokens.take();
      const f = this.tokens.peek(1);
      if (!tokenMatcher(f, T.FieldName)) throw NOT_READ;
      this.tokens.take();
      e = { kind: 'field', target: e, field: f.image, fieldSpan: tokSpan(f), span: span(e, f) } as A.FieldExpr;
    }
    return e;
  }

  private primary(): A.Expr {
    const t = this.tokens.peek(1);
    const type = t.tokenType;
    if (type === T.NumberLit) {
      this.tokens.take();
      return { kind: 'number', value: Number(t.image), span: tokSpan(t) } as A.NumberExpr;
    }
    if (type === T.StringLit) return this.string();
    if (type === K.true || type === K.false) return { kind: 'bool', value: type === K.true, span: tokSpan(this.tokens.take()) } as A.BoolExpr;
    if (type === K.none) return { kind: 'none', span: tokSpan(this.tokens.take()) } as A.NoneExpr;
    if (tokenMatcher(t, T.CallName)) {
      this.tokens.take();
      if (this.tokens.peek(1).tokenType !== T.LParen) return { kind: 'name', name: t.image, span: tokSpan(t) } as A.NameExpr;
      const call = this.args();
      return { kind: 'call', callee: t.image, calleeSpan: tokSpan(t), args: call.args, span: span(t, call.close) } as A.CallExpr;
    }
    if (type === T.LParen) {
      const open = this.tokens.take();
      const e = this.expression();
      const close = this.expect(T.RParen);
      return { ...e, span: span(open, close) };
    }
    if (type === T.LBracket) {
      const open = this.tokens.take();
      const { items, close } = this.list(T.RBracket);
      return { kind: 'list', items, span: span(open, close) } as A.ListExpr;
    }
    throw NOT_READ;
  }

  protected args(): { args: A.Expr[]; close: IToken } {
    this.tokens.take();
    const { items, close } = this.list(T.RParen);
    return { args: items, close };
  }

  /** Values separated by commas up to `end`, none at all too. */
  private list(end: TokenType): { items: A.Expr[]; close: IToken } {
    const items: A.Expr[] = [];
    if (this.tokens.peek(1).tokenType !== end) {
      items.push(this.expression());
      while (this.tokens.peek(1).tokenType === T.Comma) {
        this.tokens.take();
        items.push(this.expression());
      }
    }
    return { items, close: this.expect(end) };
  }

  protected string(): A.StringExpr {
    const t = this.tokens.take();
    if (!this.tokens.holeParser) return { kind: 'string', parts: [], span: tokSpan(t) };
    const { parts, badHoles } = splitHoles(t, this.tokens.holeParser);
    return badHoles.length ? { kind: 'string', parts, badHoles, span: tokSpan(t) } : { kind: 'string', parts, span: tokSpan(t) };
  }

  protected expect(type: TokenType): IToken {
    if (this.tokens.peek(1).tokenType !== type) throw NOT_READ;
    return this.tokens.take();
  }
}
