import { LRUCache } from 'lru-cache';
import { EmbeddedActionsParser, type IOrAlt, type IRecognitionException, type IToken, type TokenType, type IParserErrorMessageProvider, tokenLabel } from 'chevrotain';
import * as T from './lexer.ts';
import type * as A from './ast.ts';
import { DIRECT_DEPTH, NOT_READ, type TokenSource } from './expressionReader.ts';
import { splitHoles } from './holes.ts';
import { contextualWords, declarationList, declarations } from './language.ts';
import { span, tokSpan, tokenEnd } from './spans.ts';
import { StatementReader } from './statementReader.ts';

const K = T.keywords;

/** Parser messages in the author's words, not the parser's: "expected `}`" rather than token names. */
const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual, previous }) => `expected ${describe(expected)}${after(previous)} but found ${shown(actual)}`,
  // Reworded by `withParser`, which knows whether rules, an expression or a type was read.
  buildNotAllInputParsedMessage: ({ firstRedundant }) => `unexpected ${shown(firstRedundant)}`,
  buildNoViableAltMessage: ({ actual, ruleName }) => `expected ${expectedIn(ruleName)} but found ${shown(actual[0])}`,
  buildEarlyExitMessage: ({ actual, ruleName }) => `expected ${expectedIn(ruleName)} but found ${shown(actual[0])}`,
};

/** What the author should have written where a grammar rule found none of its choices. */
const ruleWords: Record<string, string> = {
  decl: `a declaration (${declarationList()})`,
  stmt: 'a statement',
  typeRef: 'a type such as `number`, `region?` or `list<race>`',
  ifStmt: '`if` or `{` after `else`',
  drawStmt: '`top` or `bottom`',
  putStmt: '`top` or `bottom` (`put x on top of pile`)',
  actionDecl: '`turn` or `game` after `per`',
  fromWord: '`from`',
  anyoneWord: '`anyone` after `by`',
};
const EXPRESSION = 'a value (a name, a number, a quoted text, `(`, `[`, `-` or `not`)';
function expectedIn(ruleName: string): string {
  return ruleWords[ruleName] ?? EXPRESSION;
}

function describe(t: TokenType): string {
  const label = tokenLabel(t);
  if (label.startsWith('Kw_')) return `\`${label.slice(3)}\``;
  const pattern = t.PATTERN;
  if (pattern instanceof RegExp && /^\\?.{1,2}$/.test(pattern.source)) return `\`${pattern.source.replace(/\\/g, '')}\``;
  if (label === 'Ident' || label === 'CallName' || label === 'FieldName') return 'a name';
  if (label === 'NumberLit') return 'a number';
  if (label === 'StringLit') return 'a quoted text';
  return label;
}
/** ` after \`let\``: the keyword just read says what was being written. */
function after(previous: IToken | undefined): string {
  return previous && previous.tokenType.name.startsWith('Kw_') ? ` after \`${previous.image}\`` : '';
}
function shown(tok: IToken | undefined): string {
  if (!tok || tok.tokenType.name === 'EOF') return 'the end of the rules';
  return `\`${tok.image}\``;
}

/** A syntax error found by the parser's actions rather than its grammar; kept with Chevrotain's own. */
interface ShapeError extends IRecognitionException {
  span: A.Span;
}

/** Declarations that name what they declare: their name is known even when the rest does not parse. */
const namedDecl = new Set<string>(declarations.filter((d) => d.named).map((d) => `Kw_${d.keyword}`));

class RulesParser extends EmbeddedActionsParser implements TokenSource {
  /** Strings are parsed in two steps: their holes `{expr}` go through `expression` again. */
  holeParser?: (text: string, offset: number) => A.Expr | SyntaxError;
  /** Names of the declarations that had a syntax error, for the last `program` parsed. */
  broken: string[] = [];
  /**
   * Set while a text is read directly: the entry rules (`program`, `expression`) hand the text to
   * `reader`, which throws at the first error (dsl/statementReader.ts, dsl/expressionReader.ts).
   * Off, the grammar reads everything and recovers from errors.
   */
  direct = false;
  readonly reader = new StatementReader(this);

  constructor() {
    // Recovery: after an error the parser re-syncs on a token that may follow (a `}`, the next
    // statement, the next declaration), so one broken declaration neither hides the others nor
    // makes every use of them an error.
    super(T.allTokens, { errorMessageProvider: messages, maxLookahead: 3, recoveryEnabled: true });
    this.performSelfAnalysis();
  }

  /**
   * An alternative for each of these tokens. Alternatives are made once per parser, not on every
   * call of their rule: making them anew for each token read was most of the parse's time.
   */
  private tokenAlts(tokens: TokenType[]): Array<IOrAlt<IToken>> {
    return tokens.map((t) => ({ ALT: () => this.CONSUME(t) }));
  }

  peek(k: number): IToken {
    return this.LA(k);
  }

  take(): IToken {
    const t = this.LA(1);
    this.SKIP_TOKEN();
    return t;
  }

  /** Reports a statement of the wrong shape without stopping: the parse goes on, the declaration is dropped. */
  reject(message: string, at: A.Span, token: IToken): void {
    const e = Object.assign(new Error(message), { name: 'ShapeError', token, span: at, resyncedTokens: [], context: { ruleStack: [], ruleOccurrenceStack: [] } }) as ShapeError;
    this.errors = [...this.errors, e];
  }

  /**
   * A declaration with a syntax error is left out, and only its first error is kept: what the
   * recovery skipped after it would be noise.
   */
  program = this.RULE('program', (): A.Program => {
    if (this.direct) return this.reader.program();
    const decls: A.Decl[] = [];
    this.MANY(() => {
      const before = this.ACTION(() => ({ errors: this.errors.length, name: this.declName() }));
      const d = this.SUBRULE(this.decl);
      this.ACTION(() => {
        const errors = this.errors;
        if (errors.length === before.errors && d) decls.push(d);
        else {
          if (before.name) this.broken.push(before.name);
          if (errors.length > before.errors + 1) this.errors = errors.slice(0, before.errors + 1);
        }
      });
    });
    return { decls };
  });

  private declName(): string | undefined {
    const at = this.LA(1).tokenType === K.override ? 2 : 1;
    const name = this.LA(at + 1);
    return namedDecl.has(this.LA(at).tokenType.name) && name.tokenType === T.Ident ? name.image : undefined;
  }

  private readonly declarations: Array<IOrAlt<A.Decl>> = [
    { ALT: () => this.SUBRULE(this.eventDecl) },
    { ALT: () => this.SUBRULE(this.fnDecl) },
    { ALT: () => this.SUBRULE(this.pipelineDecl) },
    { ALT: () => this.SUBRULE(this.checkDecl) },
    { ALT: () => this.SUBRULE(this.procDecl) },
    { ALT: () => this.SUBRULE(this.actionDecl) },
    { ALT: () => this.SUBRULE(this.onDecl) },
    { ALT: () => this.SUBRULE(this.modifyDecl) },
    { ALT: () => this.SUBRULE(this.setupDecl) },
    { ALT: () => this.SUBRULE(this.flowDecl) },
    { ALT: () => this.SUBRULE(this.guardDecl) },
    { ALT: () => this.SUBRULE(this.invariantDecl) },
  ];

  decl = this.RULE('decl', (): A.Decl => {
    const override = this.OPTION(() => this.CONSUME(K.override));
    const d = this.OR(this.declarations);
    return this.ACTION(() => (override ? { ...d, override: true, span: span(override, d) } : d));
  });

  params = this.RULE('params', (): A.Param[] => {
    const ps: A.Param[] = [];
    this.CONSUME(T.LParen);
    this.MANY_SEP({
      SEP: T.Comma,
      DEF: () => {
        const n = this.CONSUME(T.Ident);
        this.CONSUME(T.Colon);
        const type = this.SUBRULE(this.typeRef);
        let domain: A.Expr | undefined;
        this.OPTION(() => {
          this.CONSUME(K.in);
          domain = this.SUBRULE(this.rangeExpr);
        });
        ps.push({ name: n.image, type, domain, span: tokSpan(n) });
      },
    });
    this.CONSUME(T.RParen);
    return ps;
  });

  binds = this.RULE('binds', (): Array<{ name: string; span: A.Span }> => {
    const bs: Array<{ name: string; span: A.Span }> = [];
    this.OPTION(() => {
      this.CONSUME(T.LParen);
      this.MANY_SEP({
        SEP: T.Comma,
        DEF: () => {
          const n = this.CONSUME(T.Ident);
          bs.push({ name: n.image, span: tokSpan(n) });
        },
      });
      this.CONSUME(T.RParen);
    });
    return bs;
  });

  roles = this.RULE('roles', (): A.RoleList => {
    const names: Array<{ name: string; span: A.Span }> = [];
    this.OPTION(() => {
      this.CONSUME(K.while);
      this.AT_LEAST_ONE_SEP({
        SEP: T.Comma,
        DEF: () => {
          const n = this.CONSUME(T.Ident);
          names.push({ name: n.image, span: tokSpan(n) });
        },
      });
    });
    return { names };
  });

  typeRef = this.RULE('typeRef', (): A.TypeRef => {
    const n = this.CONSUME(T.Ident);
    let element: A.TypeRef | undefined;
    let last: IToken = n;
    this.OPTION(() => {
      this.CONSUME(T.Lt);
      element = this.SUBRULE(this.typeRef);
      last = this.CONSUME(T.Gt);
    });
    let optional = false;
    this.OPTION2(() => {
      last = this.CONSUME(T.Question);
      optional = true;
    });
    return { name: n.image, element, optional, span: span(n, last) };
  });

  eventDecl = this.RULE('eventDecl', (): A.EventDecl => {
    const kw = this.CONSUME(K.event);
    const n = this.CONSUME(T.Ident);
    const params = this.OPTION(() => this.SUBRULE(this.params)) ?? [];
    return { kind: 'event', name: n.image, nameSpan: tokSpan(n), params, span: span(kw, n) };
  });

  fnDecl = this.RULE('fnDecl', (): A.FnDecl => {
    const kw = this.CONSUME(K.fn);
    const n = this.CONSUME(T.Ident);
    const params = this.SUBRULE(this.params);
    this.CONSUME(T.Colon);
    const returns = this.SUBRULE(this.typeRef);
    this.CONSUME(T.Assign);
    const body = this.SUBRULE(this.expression);
    return { kind: 'fn', name: n.image, nameSpan: tokSpan(n), params, returns, body, span: this.ACTION(() => span(kw, body)) };
  });

  pipelineDecl = this.RULE('pipelineDecl', (): A.PipelineDecl => {
    const kw = this.CONSUME(K.pipeline);
    const n = this.CONSUME(T.Ident);
    const params = this.SUBRULE(this.params);
    this.CONSUME(T.Colon);
    const returns = this.SUBRULE(this.typeRef);
    let min: A.Expr | undefined;
    let max: A.Expr | undefined;
    this.OPTION(() => {
      this.CONSUME(K.min);
      min = this.SUBRULE(this.additive);
    });
    this.OPTION2(() => {
      this.CONSUME(K.max);
      max = this.SUBRULE2(this.additive);
    });
    this.CONSUME(T.Assign);
    const body = this.SUBRULE(this.expression);
    return { kind: 'pipeline', name: n.image, nameSpan: tokSpan(n), params, returns, min, max, body, span: this.ACTION(() => span(kw, body)) };
  });

  checkDecl = this.RULE('checkDecl', (): A.CheckDecl => {
    const kw = this.CONSUME(K.check);
    const n = this.CONSUME(T.Ident);
    const params = this.SUBRULE(this.params);
    const body = this.SUBRULE(this.block);
    return { kind: 'check', name: n.image, nameSpan: tokSpan(n), params, body, span: this.ACTION(() => span(kw, body)) };
  });

  procDecl = this.RULE('procDecl', (): A.ProcDecl => {
    const kw = this.CONSUME(K.proc);
    const n = this.CONSUME(T.Ident);
    const params = this.SUBRULE(this.params);
    const body = this.SUBRULE(this.block);
    return { kind: 'proc', name: n.image, nameSpan: tokSpan(n), params, body, span: this.ACTION(() => span(kw, body)) };
  });

  private readonly limitPers: Array<IOrAlt<IToken>> = [
    { ALT: () => this.CONSUME(K.turn) },
    { GATE: () => (contextualWords.limitPer as readonly string[]).includes(this.LA(1).image), ALT: () => this.CONSUME2(T.Ident) },
  ];

  /** `with other` or `anytime`: when else an action may be taken. */
  private readonly actionTimings: Array<IOrAlt<Pick<A.ActionDecl, 'with' | 'anytime'>>> = [
    {
      ALT: () => {
        this.CONSUME(K.with);
        const w = this.CONSUME3(T.Ident);
        return { with: { name: w.image, span: tokSpan(w) } };
      },
    },
    { ALT: () => ({ anytime: tokSpan(this.CONSUME(K.anytime)) }) },
  ];

  actionDecl = this.RULE('actionDecl', (): A.ActionDecl => {
    const kw = this.CONSUME(K.action);
    const n = this.CONSUME(T.Ident);
    const params = this.OPTION(() => this.SUBRULE(this.params)) ?? [];
    const label = this.OPTION2(() => this.SUBRULE(this.stringLit));
    let limit: A.ActionDecl['limit'];
    this.OPTION3(() => {
      const l = this.CONSUME(K.limit);
      const times = this.CONSUME(T.NumberLit);
      this.CONSUME(K.per);
      const per = this.OR(this.limitPers);
      limit = { times: Number(times.image), per: per.image as 'turn' | 'game', span: span(l, per) };
    });
    const timing = this.OPTION4(() => this.OR2(this.actionTimings));
    const roles = this.SUBRULE(this.roles);
    const body = this.SUBRULE(this.block);
    return { kind: 'action', name: n.image, nameSpan: tokSpan(n), params, label, limit, with: timing?.with, anytime: timing?.anytime, roles, body, span: this.ACTION(() => span(kw, body)) };
  });

  onDecl = this.RULE('onDecl', (): A.OnDecl => {
    const kw = this.CONSUME(K.on);
    const n = this.CONSUME(T.Ident);
    const binds = this.SUBRULE(this.binds);
    let when: A.Expr | undefined;
    this.OPTION(() => {
      this.CONSUME(K.when);
      when = this.SUBRULE(this.expression);
    });
    const roles = this.SUBRULE(this.roles);
    const body = this.SUBRULE(this.block);
    return { kind: 'on', name: n.image, nameSpan: tokSpan(n), binds, when, roles, body, span: this.ACTION(() => span(kw, body)) };
  });

  modifyDecl = this.RULE('modifyDecl', (): A.ModifyDecl => {
    const kw = this.CONSUME(K.modify);
    const n = this.CONSUME(T.Ident);
    const binds = this.SUBRULE(this.binds);
    let anyone = false;
    this.OPTION(() => {
      this.CONSUME(K.by);
      this.SUBRULE(this.anyoneWord);
      anyone = true;
    });
    const roles = this.SUBRULE(this.roles);
    let when: A.Expr | undefined;
    this.OPTION2(() => {
      this.CONSUME(K.when);
      when = this.SUBRULE(this.expression);
    });
    this.CONSUME(T.Assign);
    const value = this.SUBRULE2(this.expression);
    return { kind: 'modify', name: n.image, nameSpan: tokSpan(n), binds, anyone, roles, when, value, span: this.ACTION(() => span(kw, value)) };
  });

  setupDecl = this.RULE('setupDecl', (): A.SetupDecl => {
    const kw = this.CONSUME(K.setup);
    const body = this.SUBRULE(this.block);
    return { kind: 'setup', name: 'setup', nameSpan: tokSpan(kw), body, span: this.ACTION(() => span(kw, body)) };
  });

  guardDecl = this.RULE('guardDecl', (): A.GuardDecl => {
    const kw = this.CONSUME(K.guard);
    const n = this.CONSUME(T.Ident);
    const params = this.SUBRULE(this.params);
    const fields: A.GuardDecl['fields'] = [];
    this.OPTION(() => {
      this.CONSUME(K.of);
      this.AT_LEAST_ONE_SEP({
        SEP: T.Comma,
        DEF: () => {
          const f = this.CONSUME2(T.Ident);
          fields.push({ name: f.image, span: tokSpan(f) });
        },
      });
    });
    let when: A.Expr | undefined;
    this.OPTION2(() => {
      this.CONSUME(K.when);
      when = this.SUBRULE(this.expression);
    });
    const body = this.SUBRULE(this.block);
    return { kind: 'guard', name: n.image, nameSpan: tokSpan(n), params, fields, when, body, span: this.ACTION(() => span(kw, body)) };
  });

  invariantDecl = this.RULE('invariantDecl', (): A.InvariantDecl => {
    const kw = this.CONSUME(K.invariant);
    const message = this.SUBRULE(this.stringLit);
    this.CONSUME(T.Assign);
    const cond = this.SUBRULE(this.expression);
    return { kind: 'invariant', name: 'invariant', nameSpan: tokSpan(kw), message, cond, span: this.ACTION(() => span(kw, cond)) };
  });

  flowDecl = this.RULE('flowDecl', (): A.FlowDecl => {
    const kw = this.CONSUME(K.flow);
    const body = this.SUBRULE(this.block);
    return { kind: 'flow', name: 'flow', nameSpan: tokSpan(kw), body, span: this.ACTION(() => span(kw, body)) };
  });

  // ─── Statements ───────────────────────────────────────────────────────────

  block = this.RULE('block', (): A.Block => {
    const open = this.CONSUME(T.LBrace);
    const stmts: A.Stmt[] = [];
    this.MANY(() => stmts.push(this.SUBRULE(this.stmt)));
    const close = this.CONSUME(T.RBrace);
    return { stmts, span: span(open, close) };
  });

  private readonly statements: Array<IOrAlt<A.Stmt>> = [
    { ALT: () => this.SUBRULE(this.letStmt) },
    { ALT: () => this.SUBRULE(this.ifStmt) },
    { ALT: () => this.SUBRULE(this.forStmt) },
    { ALT: () => this.SUBRULE(this.repeatStmt) },
    { ALT: () => this.SUBRULE(this.loopStmt) },
    { ALT: () => ({ kind: 'break' as const, span: tokSpan(this.CONSUME(K.break)) }) },
    { ALT: () => ({ kind: 'finish' as const, span: tokSpan(this.CONSUME(K.finish)) }) },
    { ALT: () => this.SUBRULE(this.requireStmt) },
    { ALT: () => this.SUBRULE(this.chooseStmt) },
    { ALT: () => this.SUBRULE(this.offerStmt) },
    { ALT: () => this.SUBRULE(this.emitStmt) },
    { ALT: () => this.SUBRULE(this.logStmt) },
    { ALT: () => this.SUBRULE(this.turnStmt) },
    { ALT: () => this.SUBRULE(this.resolvingStmt) },
    { ALT: () => this.SUBRULE(this.shuffleStmt) },
    { ALT: () => this.SUBRULE(this.drawStmt) },
    { ALT: () => this.SUBRULE(this.putStmt) },
    { ALT: () => this.SUBRULE(this.removeStmt) },
    { ALT: () => this.SUBRULE(this.reachStmt) },
    { ALT: () => this.SUBRULE(this.assignOrCall) },
  ];

  stmt = this.RULE('stmt', (): A.Stmt => this.OR(this.statements));

  letStmt = this.RULE('letStmt', (): A.LetStmt => {
    const kw = this.CONSUME(K.let);
    const n = this.CONSUME(T.Ident);
    this.CONSUME(T.Assign);
    const value = this.SUBRULE(this.expression);
    return { kind: 'let', name: n.image, nameSpan: tokSpan(n), value, span: this.ACTION(() => span(kw, value)) };
  });

  /** `else if …` stands for an else block holding that `if` alone. */
  private readonly elseBlocks: Array<IOrAlt<A.Block>> = [
    {
      ALT: () => {
        const nested = this.SUBRULE(this.ifStmt);
        return { stmts: [nested], span: nested?.span };
      },
    },
    { ALT: () => this.SUBRULE2(this.block) },
  ];

  ifStmt = this.RULE('ifStmt', (): A.IfStmt => {
    const kw = this.CONSUME(K.if);
    const cond = this.SUBRULE(this.expression);
    const then = this.SUBRULE(this.block);
    let elseBlock: A.Block | undefined;
    this.OPTION(() => {
      this.CONSUME(K.else);
      elseBlock = this.OR(this.elseBlocks);
    });
    return { kind: 'if', cond, then, else: elseBlock, span: this.ACTION(() => span(kw, elseBlock ?? then)) };
  });

  forStmt = this.RULE('forStmt', (): A.ForStmt => {
    const kw = this.CONSUME(K.for);
    const n = this.CONSUME(T.Ident);
    this.CONSUME(K.in);
    const source = this.SUBRULE(this.expression);
    const body = this.SUBRULE(this.block);
    return { kind: 'for', name: n.image, nameSpan: tokSpan(n), source, body, span: this.ACTION(() => span(kw, body)) };
  });

  repeatStmt = this.RULE('repeatStmt', (): A.RepeatStmt => {
    const kw = this.CONSUME(K.repeat);
    const times = this.SUBRULE(this.expression);
    const body = this.SUBRULE(this.block);
    return { kind: 'repeat', times, body, span: this.ACTION(() => span(kw, body)) };
  });

  loopStmt = this.RULE('loopStmt', (): A.LoopStmt => {
    const kw = this.CONSUME(K.loop);
    this.CONSUME(K.max);
    const max = this.SUBRULE(this.expression);
    const body = this.SUBRULE(this.block);
    return { kind: 'loop', max, body, span: this.ACTION(() => span(kw, body)) };
  });

  requireStmt = this.RULE('requireStmt', (): A.RequireStmt => {
    const kw = this.CONSUME(K.require);
    const cond = this.SUBRULE(this.expression);
    const reason = this.OPTION(() => {
      this.CONSUME(K.else);
      return this.SUBRULE(this.stringLit);
    });
    this.ACTION(() => {
      const next = this.LA(1);
      // A reason without its `else`: say so, rather than that a statement was expected.
      if (!reason && next.tokenType === T.StringLit) this.reject(`expected \`else\` but found ${shown(next)}`, tokSpan(next), next);
    });
    return { kind: 'require', cond, reason, span: this.ACTION(() => span(kw, reason ?? cond)) };
  });

  chooseStmt = this.RULE('chooseStmt', (): A.ChooseStmt => {
    const kw = this.CONSUME(K.choose);
    let optional = false;
    this.OPTION(() => {
      this.CONSUME(K.optional);
      optional = true;
    });
    const n = this.CONSUME(T.Ident);
    this.CONSUME(K.in);
    const source = this.SUBRULE(this.expression);
    let by: A.Expr | undefined;
    this.OPTION2(() => {
      this.CONSUME(K.by);
      by = this.SUBRULE(this.additive);
    });
    const prompt = this.OPTION3(() => this.SUBRULE(this.stringLit));
    const body = this.SUBRULE(this.block);
    return { kind: 'choose', optional, name: n.image, nameSpan: tokSpan(n), source, by, prompt, body, span: this.ACTION(() => span(kw, body)) };
  });

  offerStmt = this.RULE('offerStmt', (): A.OfferStmt => {
    const kw = this.CONSUME(K.offer);
    const player = this.SUBRULE(this.additive);
    this.CONSUME(T.Colon);
    const actions: Array<{ name: string; span: A.Span }> = [];
    let last: IToken = kw;
    this.AT_LEAST_ONE_SEP({
      SEP: T.Comma,
      DEF: () => {
        last = this.CONSUME(T.Ident);
        actions.push({ name: last.image, span: tokSpan(last) });
      },
    });
    return { kind: 'offer', player, actions, span: span(kw, last) };
  });

  emitStmt = this.RULE('emitStmt', (): A.EmitStmt => {
    const kw = this.CONSUME(K.emit);
    const n = this.CONSUME(T.Ident);
    const args = this.OPTION(() => this.SUBRULE(this.args)) ?? { args: [], close: n };
    return { kind: 'emit', event: n.image, eventSpan: tokSpan(n), args: args.args, span: span(kw, args.close) };
  });

  logStmt = this.RULE('logStmt', (): A.LogStmt => {
    const kw = this.CONSUME(K.log);
    const text = this.SUBRULE(this.stringLit);
    return { kind: 'log', text, span: this.ACTION(() => span(kw, text)) };
  });

  resolvingStmt = this.RULE('resolvingStmt', (): A.ResolvingStmt => {
    const kw = this.CONSUME(K.resolving);
    const body = this.SUBRULE(this.block);
    return { kind: 'resolving', body, span: this.ACTION(() => span(kw, body)) };
  });

  turnStmt = this.RULE('turnStmt', (): A.TurnStmt => {
    const kw = this.CONSUME(K.turn);
    const player = this.SUBRULE(this.additive);
    const body = this.SUBRULE(this.block);
    return { kind: 'turn', player, body, span: this.ACTION(() => span(kw, body)) };
  });

  shuffleStmt = this.RULE('shuffleStmt', (): A.ShuffleStmt => {
    const kw = this.CONSUME(K.shuffle);
    const target = this.SUBRULE(this.postfix);
    return { kind: 'shuffle', target, span: this.ACTION(() => span(kw, target)) };
  });

  private readonly ends: Array<IOrAlt<'top' | 'bottom'>> = [
    {
      ALT: () => {
        this.CONSUME(K.top);
        return 'top';
      },
    },
    {
      ALT: () => {
        this.CONSUME(K.bottom);
        return 'bottom';
      },
    },
  ];

  /** `draw c from deck` takes the top card; `draw c from bottom of deck` the bottom one. */
  drawStmt = this.RULE('drawStmt', (): A.DrawStmt => {
    const kw = this.CONSUME(K.draw);
    const n = this.CONSUME(T.Ident);
    this.SUBRULE(this.fromWord);
    const end = this.OPTION(() => {
      const which = this.OR(this.ends);
      this.CONSUME(K.of);
      return which;
    }) ?? 'top';
    const from = this.SUBRULE(this.postfix);
    return { kind: 'draw', name: n.image, nameSpan: tokSpan(n), from, end, span: this.ACTION(() => span(kw, from)) };
  });

  /** `put c on bottom of deck` */
  putStmt = this.RULE('putStmt', (): A.PutStmt => {
    const kw = this.CONSUME(K.put);
    const value = this.SUBRULE(this.additive);
    this.CONSUME(K.on);
    const end = this.OR(this.ends);
    this.CONSUME(K.of);
    const into = this.SUBRULE(this.postfix);
    return { kind: 'put', value, end, into, span: this.ACTION(() => span(kw, into)) };
  });

  removeStmt = this.RULE('removeStmt', (): A.RemoveStmt => {
    const kw = this.CONSUME(K.remove);
    const value = this.SUBRULE(this.additive);
    this.SUBRULE(this.fromWord);
    const from = this.SUBRULE(this.postfix);
    return { kind: 'remove', value, from, span: this.ACTION(() => span(kw, from)) };
  });

  reachStmt = this.RULE('reachStmt', (): A.ReachStmt => {
    const kw = this.CONSUME(K.reach);
    const target = this.SUBRULE(this.postfix);
    return { kind: 'reach', target, span: this.ACTION(() => span(kw, target)) };
  });

  /** `from` stays an ordinary name elsewhere (a parameter may be called `from`). */
  private readonly fromWords: Array<IOrAlt<IToken>> = [{ GATE: () => this.LA(1).image === contextualWords.from, ALT: () => this.CONSUME(T.Ident) }];
  fromWord = this.RULE('fromWord', (): void => {
    this.OR(this.fromWords);
  });

  /** `anyone` too is a name anywhere but after `modify … by`. */
  private readonly anyoneWords: Array<IOrAlt<IToken>> = [{ GATE: () => this.LA(1).image === contextualWords.anyone, ALT: () => this.CONSUME(T.Ident) }];
  anyoneWord = this.RULE('anyoneWord', (): void => {
    this.OR(this.anyoneWords);
  });

  private readonly assignOps = this.tokenAlts([T.Assign, T.PlusAssign, T.MinusAssign]);

  /** An assignment, a call, or a value on its own: which of them may stand as a statement is the checker's to say. */
  assignOrCall = this.RULE('assignOrCall', (): A.Stmt => {
    // Any value but `if … then` (an `if` statement) and `where` (which would read a following block as its condition's).
    const target = this.SUBRULE(this.orExpr);
    let assigned: A.ExprStmt['assigned'];
    this.OPTION(() => {
      const op = this.OR(this.assignOps);
      const value = this.SUBRULE(this.expression);
      assigned = { op: op.image as A.AssignOp, value };
    });
    return this.ACTION((): A.Stmt => {
      if (assigned) {
        const whole = span(target, assigned.value);
        return target.kind === 'field' ? { kind: 'assign', target, ...assigned, span: whole } : { kind: 'expr', expr: target, assigned, span: whole };
      }
      return target.kind === 'call' ? { kind: 'call', call: target, span: target.span } : { kind: 'expr', expr: target, span: target?.span ?? { start: 0, end: 0 } };
    });
  });

  // ─── Expressions ──────────────────────────────────────────────────────────

  private readonly expressions: Array<IOrAlt<A.Expr>> = [{ ALT: () => this.SUBRULE(this.ifExpr) }, { ALT: () => this.SUBRULE(this.whereExpr) }];
  expression = this.RULE('expression', (): A.Expr => (this.direct ? this.reader.expression() : this.OR(this.expressions)));

  ifExpr = this.RULE('ifExpr', (): A.IfExpr => {
    const kw = this.CONSUME(K.if);
    const cond = this.SUBRULE(this.expression);
    this.CONSUME(K.then);
    const then = this.SUBRULE2(this.expression);
    this.CONSUME(K.else);
    const otherwise = this.SUBRULE3(this.expression);
    return { kind: 'if', cond, then, else: otherwise, span: this.ACTION(() => span(kw, otherwise)) };
  });

  /** `where x: …` names the element the condition reads. */
  private readonly whereName = {
    GATE: () => this.LA(2).tokenType === T.Colon,
    DEF: () => {
      const name = this.CONSUME(T.Ident);
      this.CONSUME(T.Colon);
      return name;
    },
  };

  whereExpr = this.RULE('whereExpr', (): A.Expr => {
    let e = this.SUBRULE(this.orExpr);
    this.MANY(() => {
      this.CONSUME(K.where);
      const name = this.OPTION(this.whereName);
      const cond = this.SUBRULE2(this.orExpr);
      e = this.ACTION(() => ({ kind: 'where', source: e, name: name?.image, nameSpan: name && tokSpan(name), cond, span: span(e, cond) }) as A.WhereExpr);
    });
    return e;
  });

  orExpr = this.RULE('orExpr', (): A.Expr => {
    let e = this.SUBRULE(this.andExpr);
    this.MANY(() => {
      this.CONSUME(K.or);
      const r = this.SUBRULE2(this.andExpr);
      e = this.ACTION(() => ({ kind: 'binary', op: 'or', left: e, right: r, span: span(e, r) }) as A.BinaryExpr);
    });
    return e;
  });

  andExpr = this.RULE('andExpr', (): A.Expr => {
    let e = this.SUBRULE(this.notExpr);
    this.MANY(() => {
      this.CONSUME(K.and);
      const r = this.SUBRULE2(this.notExpr);
      e = this.ACTION(() => ({ kind: 'binary', op: 'and', left: e, right: r, span: span(e, r) }) as A.BinaryExpr);
    });
    return e;
  });

  private readonly negations: Array<IOrAlt<A.Expr>> = [
    {
      ALT: () => {
        const kw = this.CONSUME(K.not);
        const operand = this.SUBRULE(this.notExpr);
        return this.ACTION(() => ({ kind: 'unary', op: 'not', operand, span: span(kw, operand) }) as A.UnaryExpr);
      },
    },
    { ALT: () => this.SUBRULE(this.comparison) },
  ];
  notExpr = this.RULE('notExpr', (): A.Expr => this.OR(this.negations));

  private readonly comparisonOps = this.tokenAlts([T.Eq, T.Neq, T.Le, T.Ge, T.Lt, T.Gt, K.in]);

  comparison = this.RULE('comparison', (): A.Expr => {
    const left = this.SUBRULE(this.rangeExpr);
    let e = left;
    this.OPTION(() => {
      const op = this.OR(this.comparisonOps);
      const right = this.SUBRULE2(this.rangeExpr);
      e = this.ACTION(() => ({ kind: 'binary', op: op.image as A.BinaryOp, left, right, span: span(left, right) }) as A.BinaryExpr);
    });
    return e;
  });

  rangeExpr = this.RULE('rangeExpr', (): A.Expr => {
    const from = this.SUBRULE(this.additive);
    let e = from;
    this.OPTION(() => {
      this.CONSUME(T.Range);
      const to = this.SUBRULE2(this.additive);
      e = this.ACTION(() => ({ kind: 'range', from, to, span: span(from, to) }) as A.RangeExpr);
    });
    return e;
  });

  private readonly additiveOps = this.tokenAlts([T.Plus, T.Minus]);

  additive = this.RULE('additive', (): A.Expr => {
    let e = this.SUBRULE(this.multiplicative);
    this.MANY(() => {
      const op = this.OR(this.additiveOps);
      const r = this.SUBRULE2(this.multiplicative);
      e = this.ACTION(() => ({ kind: 'binary', op: op.image as A.BinaryOp, left: e, right: r, span: span(e, r) }) as A.BinaryExpr);
    });
    return e;
  });

  private readonly multiplicativeOps = this.tokenAlts([T.Star, T.Slash, T.Percent]);

  multiplicative = this.RULE('multiplicative', (): A.Expr => {
    let e = this.SUBRULE(this.unary);
    this.MANY(() => {
      const op = this.OR(this.multiplicativeOps);
      const r = this.SUBRULE2(this.unary);
      e = this.ACTION(() => ({ kind: 'binary', op: op.image as A.BinaryOp, left: e, right: r, span: span(e, r) }) as A.BinaryExpr);
    });
    return e;
  });

  private readonly negatives: Array<IOrAlt<A.Expr>> = [
    {
      ALT: () => {
        const m = this.CONSUME(T.Minus);
        const operand = this.SUBRULE(this.unary);
        return this.ACTION(() => ({ kind: 'unary', op: '-', operand, span: span(m, operand) }) as A.UnaryExpr);
      },
    },
    { ALT: () => this.SUBRULE(this.postfix) },
  ];
  unary = this.RULE('unary', (): A.Expr => this.OR(this.negatives));

  postfix = this.RULE('postfix', (): A.Expr => {
    let e = this.SUBRULE(this.primary);
    this.MANY(() => {
      this.CONSUME(T.Dot);
      const f = this.CONSUME(T.FieldName);
      e = this.ACTION(() => ({ kind: 'field', target: e, field: f.image, fieldSpan: tokSpan(f), span: span(e, f) }) as A.FieldExpr);
    });
    return e;
  });

  args = this.RULE('args', (): { args: A.Expr[]; close: IToken } => {
    this.CONSUME(T.LParen);
    const args: A.Expr[] = [];
    this.MANY_SEP({ SEP: T.Comma, DEF: () => args.push(this.SUBRULE(this.expression)) });
    const close = this.CONSUME(T.RParen);
    return { args, close };
  });

  private readonly primaries: Array<IOrAlt<A.Expr>> = [
    {
      ALT: () => {
        const t = this.CONSUME(T.NumberLit);
        return { kind: 'number', value: Number(t.image), span: tokSpan(t) } as A.NumberExpr;
      },
    },
    { ALT: () => this.SUBRULE(this.stringLit) },
    { ALT: () => ({ kind: 'bool', value: true, span: tokSpan(this.CONSUME(K.true)) }) as A.BoolExpr },
    { ALT: () => ({ kind: 'bool', value: false, span: tokSpan(this.CONSUME(K.false)) }) as A.BoolExpr },
    { ALT: () => ({ kind: 'none', span: tokSpan(this.CONSUME(K.none)) }) as A.NoneExpr },
    {
      ALT: () => {
        const n = this.CONSUME(T.CallName);
        const call = this.OPTION(() => this.SUBRULE(this.args));
        return this.ACTION(() =>
          call
            ? ({ kind: 'call', callee: n.image, calleeSpan: tokSpan(n), args: call.args, span: span(n, call.close) } as A.CallExpr)
            : ({ kind: 'name', name: n.image, span: tokSpan(n) } as A.NameExpr),
        );
      },
    },
    {
      ALT: () => {
        const open = this.CONSUME(T.LParen);
        const e = this.SUBRULE(this.expression);
        const close = this.CONSUME(T.RParen);
        return this.ACTION(() => ({ ...e, span: span(open, close) }));
      },
    },
    {
      ALT: () => {
        const open = this.CONSUME(T.LBracket);
        const items: A.Expr[] = [];
        this.MANY_SEP({ SEP: T.Comma, DEF: () => items.push(this.SUBRULE2(this.expression)) });
        const close = this.CONSUME(T.RBracket);
        return { kind: 'list', items, span: span(open, close) } as A.ListExpr;
      },
    },
  ];
  primary = this.RULE('primary', (): A.Expr => this.OR(this.primaries));

  stringLit = this.RULE('stringLit', (): A.StringExpr => {
    const t = this.CONSUME(T.StringLit);
    return this.ACTION((): A.StringExpr => {
      if (!this.holeParser) return { kind: 'string', parts: [], span: tokSpan(t) };
      const { parts, badHoles } = splitHoles(t, this.holeParser);
      return badHoles.length ? { kind: 'string', parts, badHoles, span: tokSpan(t) } : { kind: 'string', parts, span: tokSpan(t) };
    });
  });
}

/** Parsers by nesting depth: a text's `{hole}` is parsed while the outer text is still being parsed. */
const parsers: RulesParser[] = [];
let depth = 0;

export interface SyntaxError {
  message: string;
  span: A.Span;
}

export interface ParseResult<T> {
  value?: T;
  errors: SyntaxError[];
}

/** What is being read decides what may follow a complete one: more declarations, or nothing. */
type Entry = 'rules' | 'expression' | 'type';
const leftOver: Record<Entry, string> = {
  rules: `a declaration (${declarationList()}) or the end of the rules was expected`,
  expression: 'the value is complete before it (an operator such as `and`, `==` or `+` may be missing)',
  type: 'a type is one word, such as `region?` or `list<race>`',
};

/**
 * How a text is read. `either`, the compiler's: directly (dsl/statementReader.ts and
 * dsl/expressionReader.ts, by plain recursive descent, no recovery), and only a text that reading
 * finds an error in again by the grammar, which recovers and words the errors: Chevrotain's rule
 * calls, lookahead and recovery bookkeeping made the grammar several times slower. `grammar` and
 * `direct` are the two alone, for the tests that hold them to the same results.
 */
export type Reading = 'either' | 'grammar' | 'direct';

/** What `direct` gives for a text it leaves to the grammar. */
export const NOT_READ_DIRECTLY = 'not read directly';

function withParser<T>(text: string, offset: number, run: (p: RulesParser) => T, entry: Entry = 'rules', reading: Reading = 'either'): ParseResult<T> {
  const lexed = T.rulesLexer.tokenize(text, offset);
  const errors: SyntaxError[] = lexed.errors.map((e) => ({
    message: `unexpected character \`${text.slice(e.offset, e.offset + e.length)}\``,
    span: { start: offset + e.offset, end: offset + e.offset + Math.max(1, e.length) },
  }));
  if (errors.length) return { errors };
  const tokens = lexed.tokens;
  if (depth >= 4) return { errors: [{ message: 'text holes `{…}` are nested too deeply', span: { start: offset, end: offset + text.length } }] };
  const parser = (parsers[depth] ??= new RulesParser());
  depth++;
  parser.holeParser = (hole, at) => {
    const r = withParser(hole, at, (p) => p.expression(), 'expression', reading);
    if (r.value) return r.value;
    const message = r.errors[0]?.message.replace('the end of the rules', 'the `}` that closes the hole') ?? 'bad expression in `{…}`';
    return { message, span: r.errors[0]?.span ?? { start: at, end: at + hole.length } };
  };
  try {
    if (reading !== 'grammar') {
      const value = readDirectly(parser, tokens, run);
      if (value !== NOT_READ) return { value, errors };
      if (reading === 'direct') return { errors: [{ message: NOT_READ_DIRECTLY, span: { start: offset, end: offset + text.length } }] };
    }
    return readByGrammar(parser, tokens, run, { start: offset, end: offset + text.length }, entry);
  } finally {
    depth--;
  }
}

/**
 * The text read directly, or `NOT_READ` at its first error or where it may nest deeper than the
 * grammar could (`DIRECT_DEPTH`, blocks and `else if` counted with it).
 */
function readDirectly<T>(parser: RulesParser, tokens: IToken[], run: (p: RulesParser) => T): T | typeof NOT_READ {
  let open = 0;
  let deepest = 0;
  let elseIfs = 0;
  for (let i = 0; i < tokens.length; i++) {
    const type = tokens[i].tokenType;
    if (type === T.LBrace) deepest = Math.max(deepest, ++open);
    else if (type === T.RBrace) open--;
    else if (type === K.else && tokens[i + 1]?.tokenType === K.if) elseIfs++;
  }
  if (deepest + elseIfs > DIRECT_DEPTH) return NOT_READ;
  parser.input = tokens;
  parser.broken = [];
  parser.direct = true;
  parser.reader.begin();
  try {
    const value = run(parser);
    return parser.errors.length ? NOT_READ : value;
  } catch {
    // Whatever stopped it, the grammar reads the text again and says what is wrong.
    return NOT_READ;
  } finally {
    parser.direct = false;
  }
}

function readByGrammar<T>(parser: RulesParser, tokens: IToken[], run: (p: RulesParser) => T, whole: A.Span, entry: Entry): ParseResult<T> {
  const errors: SyntaxError[] = [];
  parser.input = tokens;
  parser.broken = [];
  try {
    const value = run(parser);
    for (const e of parser.errors) {
      const tok = e.token;
      // The end of the rules is shown just after the last word, not on the blank line below it.
      const last = tokens[tokens.length - 1];
      const end = last ? tokenEnd(last) : whole.end;
      const at = (e as Partial<ShapeError>).span ?? (tok.tokenType.name === 'EOF' ? { start: end, end } : tokSpan(tok));
      const message = e.name === 'NotAllInputParsedException' ? `unexpected ${shown(tok)}: ${leftOver[entry]}` : e.message;
      errors.push({ message, span: at });
    }
    return errors.length ? { errors } : { value, errors };
  } catch (err) {
    const e = err as Error & { span?: A.Span; token?: IToken };
    const at = e.span ?? (e.token ? tokSpan(e.token) : whole);
    // Chevrotain descends one call per level of nesting; past the stack, say so in the author's words.
    const message = err instanceof RangeError ? 'these rules nest too deeply (brackets or blocks inside each other, hundreds deep) to be read' : e.message;
    return { errors: [{ message, span: at }] };
  }
}

/** A rules text read as far as it goes: `value` only when all of it parsed. */
export interface RulesParse extends ParseResult<A.Program> {
  /** The declarations that parsed, also when others did not. */
  decls: A.Decl[];
  /** Names of the declarations that did not parse: their uses are not reported again. */
  broken: string[];
}

/**
 * Results by text: the tree is never changed by the passes that read it, so it can be shared, and
 * the compiler's per-declaration work is kept by tree (compiler/nesting.ts). Bounded by the texts'
 * size, least recently used first out, so that an edit never empties it of the texts it left alone.
 */
const programs = new LRUCache<string, RulesParse>({ maxSize: 4 * 1024 * 1024, sizeCalculation: (_r, text) => Math.max(1, text.length) });

/** Parse a rules text (a pack's `rules:` or a card's `rules:`) into declarations. */
export function parseRules(text: string): RulesParse {
  let r = programs.get(text);
  if (!r) {
    r = readRules(text);
    programs.set(text, r);
  }
  return r;
}

/** A rules text read the way `reading` says, past the cache of `parseRules`. */
export function readRules(text: string, reading: Reading = 'either'): RulesParse {
  let partial: { program?: A.Program; broken: string[] } = { broken: [] };
  const parsed = withParser(
    text,
    0,
    (p) => {
      partial = { program: p.program(), broken: p.broken };
      return partial.program;
    },
    'rules',
    reading,
  );
  return { ...parsed, decls: partial.program?.decls ?? [], broken: partial.broken };
}

/** Parse one expression, as written in a YAML field such as a role's `players where …`. */
export function parseExpression(text: string, reading: Reading = 'either'): ParseResult<A.Expr> {
  return withParser(text, 0, (p) => p.expression(), 'expression', reading);
}

/** Parse a type as written in a YAML field declaration: `number`, `region?`, `list<race>`. */
export function parseType(text: string): ParseResult<A.TypeRef> {
  return withParser(text, 0, (p) => p.typeRef(), 'type');
}
