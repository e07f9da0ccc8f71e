import { describe, expect, it } from 'vitest';
import type * as A from '../dsl/ast.ts';
import { parseExpression, parseRules, parseType } from '../dsl/parser.ts';
import { diagnosticsOf } from './helpers/inlinePack.ts';

/** The tree without positions, and without fields the parser leaves undefined. */
function strip<T>(node: T): T {
  if (Array.isArray(node)) return node.map(strip) as T;
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (k !== 'span' && !k.endsWith('Span') && v !== undefined) out[k] = strip(v);
    return out as T;
  }
  return node;
}

// Shorthands for expected trees (positions left out).
const name = (n: string) => ({ kind: 'name', name: n });
const num = (value: number) => ({ kind: 'number', value });
const str = (...parts: unknown[]) => ({ kind: 'string', parts });
const bin = (op: A.BinaryOp, left: unknown, right: unknown) => ({ kind: 'binary', op, left, right });
const field = (target: unknown, f: string) => ({ kind: 'field', target, field: f });
const call = (callee: string, ...args: unknown[]) => ({ kind: 'call', callee, args });
const type = (n: string, extra: Partial<{ element: unknown; optional: boolean }> = {}) => ({ name: n, optional: false, ...extra });
const block = (...stmts: unknown[]) => ({ stmts });
const names = (...ns: string[]) => ns.map((n) => ({ name: n }));
const none = { kind: 'none' };

function decls(src: string): A.Decl[] {
  const r = parseRules(src);
  expect(r.errors, src).toEqual([]);
  return r.value!.decls;
}
function one(src: string): A.Decl {
  const ds = decls(src);
  expect(ds).toHaveLength(1);
  return ds[0];
}
/** The statements of `flow { … }`. */
function stmts(body: string): A.Stmt[] {
  return (one(`flow {\n${body}\n}`) as A.FlowDecl).body.stmts;
}
function stmt(body: string): A.Stmt {
  const ss = stmts(body);
  expect(ss).toHaveLength(1);
  return ss[0];
}
function expr(src: string): A.Expr {
  const r = parseExpression(src);
  expect(r.errors, src).toEqual([]);
  return r.value!;
}

describe('parser: declarations', () => {
  it('event, with and without parameters', () => {
    expect(strip(decls('event claimed(s: space, by2: player?)\nevent passed'))).toEqual([
      { kind: 'event', name: 'claimed', params: [{ name: 's', type: type('space') }, { name: 'by2', type: type('player', { optional: true }) }] },
      { kind: 'event', name: 'passed', params: [] },
    ]);
  });

  it('fn', () => {
    expect(strip(one('fn mine(p: player): list<space> = spaces where owner == p'))).toEqual({
      kind: 'fn',
      name: 'mine',
      params: [{ name: 'p', type: type('player') }],
      returns: type('list', { element: type('space') }),
      body: { kind: 'where', source: name('spaces'), cond: bin('==', name('owner'), name('p')) },
    });
  });

  it('pipeline with min and max', () => {
    expect(strip(one('pipeline cost(r: region): number min 1 max 2 + 3 = r.tokens'))).toEqual({
      kind: 'pipeline',
      name: 'cost',
      params: [{ name: 'r', type: type('region') }],
      returns: type('number'),
      min: num(1),
      max: bin('+', num(2), num(3)),
      body: field(name('r'), 'tokens'),
    });
  });

  it('proc', () => {
    expect(strip(one('proc empty(r: region) { r.tokens = 0 }'))).toEqual({
      kind: 'proc',
      name: 'empty',
      params: [{ name: 'r', type: type('region') }],
      body: block({ kind: 'assign', target: field(name('r'), 'tokens'), op: '=', value: num(0) }),
    });
  });

  it('action with domain, label, limit, companion and roles', () => {
    expect(strip(one('action claim(s: space, n: number in 1..3) "Claim {s}" limit 1 per turn with pass while active, decline { }'))).toEqual({
      kind: 'action',
      name: 'claim',
      params: [
        { name: 's', type: type('space') },
        { name: 'n', type: type('number'), domain: { kind: 'range', from: num(1), to: num(3) } },
      ],
      label: str('Claim ', name('s')),
      limit: { times: 1, per: 'turn' },
      with: { name: 'pass' },
      roles: { names: names('active', 'decline') },
      body: block(),
    });
    expect(strip(one('action pass "Pass" { }'))).toMatchObject({ kind: 'action', name: 'pass', params: [], label: str('Pass'), roles: { names: [] } });
    expect(strip(one('action once limit 2 per game { }'))).toMatchObject({ limit: { times: 2, per: 'game' } });
  });

  it('on, with binds, when and roles', () => {
    expect(strip(one('on conquered(r, loser) when loser != none while active { log "x" }'))).toEqual({
      kind: 'on',
      name: 'conquered',
      binds: names('r', 'loser'),
      when: bin('!=', name('loser'), none),
      roles: { names: names('active') },
      body: block({ kind: 'log', text: str('x') }),
    });
    expect(strip(one('on turnStarted { }'))).toEqual({ kind: 'on', name: 'turnStarted', binds: [], roles: { names: [] }, body: block() });
  });

  it('modify, with binds, by anyone, roles and when', () => {
    expect(strip(one('modify cost(r) by anyone while active when r.mountain = value + 1'))).toEqual({
      kind: 'modify',
      name: 'cost',
      binds: names('r'),
      anyone: true,
      roles: { names: names('active') },
      when: field(name('r'), 'mountain'),
      value: bin('+', name('value'), num(1)),
    });
    expect(strip(one('modify cost = 0'))).toEqual({ kind: 'modify', name: 'cost', binds: [], anyone: false, roles: { names: [] }, value: num(0) });
  });

  it('setup, flow and override', () => {
    expect(strip(decls('setup { }\nflow { finish }\noverride proc deal() { }'))).toEqual([
      { kind: 'setup', name: 'setup', body: block() },
      { kind: 'flow', name: 'flow', body: block({ kind: 'finish' }) },
      { kind: 'proc', name: 'deal', override: true, params: [], body: block() },
    ]);
  });

  it('invariant', () => {
    expect(strip(one('invariant "a race has {count(races)} tokens at most" = all(races, it.tokens >= 0)'))).toEqual({
      kind: 'invariant',
      name: 'invariant',
      message: str('a race has ', call('count', name('races')), ' tokens at most'),
      cond: call('all', name('races'), bin('>=', field(name('it'), 'tokens'), num(0))),
    });
  });

  it('keeps the positions of names, in the rules text', () => {
    const src = 'event e\n\nfn double(x: number): number = x * 2';
    const fn = decls(src)[1] as A.FnDecl;
    expect(src.slice(fn.nameSpan.start, fn.nameSpan.end)).toBe('double');
    expect(src.slice(fn.span.start, fn.span.end)).toBe('fn double(x: number): number = x * 2');
    expect(src.slice(fn.params[0].type.span.start, fn.params[0].type.span.end)).toBe('number');
  });

  it('reads comments as nothing and accepts empty rules', () => {
    expect(decls('# nothing here\n   \n')).toEqual([]);
    expect(strip(decls('event a # the first\n# between\nevent b'))).toHaveLength(2);
  });
});

describe('parser: statements', () => {
  it('let and assignments', () => {
    expect(strip(stmts('let n = count(players)\nme.coins = 1\nme.coins += n\nr.owner.coins -= 2'))).toEqual([
      { kind: 'let', name: 'n', value: call('count', name('players')) },
      { kind: 'assign', target: field(name('me'), 'coins'), op: '=', value: num(1) },
      { kind: 'assign', target: field(name('me'), 'coins'), op: '+=', value: name('n') },
      { kind: 'assign', target: field(field(name('r'), 'owner'), 'coins'), op: '-=', value: num(2) },
    ]);
  });

  it('if, else if, else', () => {
    expect(strip(stmt('if a { break } else if b { finish } else { f() }'))).toEqual({
      kind: 'if',
      cond: name('a'),
      then: block({ kind: 'break' }),
      else: block({ kind: 'if', cond: name('b'), then: block({ kind: 'finish' }), else: block({ kind: 'call', call: call('f') }) }),
    });
  });

  it('for, repeat and loop max', () => {
    expect(strip(stmts('for r in regions where owner == me { }\nrepeat 6 { refill() }\nloop max 200 { break }'))).toEqual([
      { kind: 'for', name: 'r', source: { kind: 'where', source: name('regions'), cond: bin('==', name('owner'), name('me')) }, body: block() },
      { kind: 'repeat', times: num(6), body: block({ kind: 'call', call: call('refill') }) },
      { kind: 'loop', max: num(200), body: block({ kind: 'break' }) },
    ]);
  });

  it('require … else', () => {
    expect(strip(stmt('require me.hand >= 1 else "you have {me.hand} tokens"'))).toEqual({
      kind: 'require',
      cond: bin('>=', field(name('me'), 'hand'), num(1)),
      reason: str('you have ', field(name('me'), 'hand'), ' tokens'),
    });
  });

  it('choose, plain and with every option', () => {
    expect(strip(stmt('choose r in regions { }'))).toEqual({ kind: 'choose', optional: false, name: 'r', source: name('regions'), body: block() });
    expect(strip(stmt('choose optional r in regions where owner == me by current "Place the aegis" { r.aegis = true }'))).toEqual({
      kind: 'choose',
      optional: true,
      name: 'r',
      source: { kind: 'where', source: name('regions'), cond: bin('==', name('owner'), name('me')) },
      by: name('current'),
      prompt: str('Place the aegis'),
      body: block({ kind: 'assign', target: field(name('r'), 'aegis'), op: '=', value: { kind: 'bool', value: true } }),
    });
  });

  it('offer, emit, log and turn', () => {
    expect(strip(stmts('offer p: conquer, decline, pass\nemit conquered(r, me)\nemit passed\nlog "Round {round}"\nturn p { offer p: pass }'))).toEqual([
      { kind: 'offer', player: name('p'), actions: names('conquer', 'decline', 'pass') },
      { kind: 'emit', event: 'conquered', args: [name('r'), name('me')] },
      { kind: 'emit', event: 'passed', args: [] },
      { kind: 'log', text: str('Round ', name('round')) },
      { kind: 'turn', player: name('p'), body: block({ kind: 'offer', player: name('p'), actions: names('pass') }) },
    ]);
  });

  it('piles: shuffle, draw, put and remove', () => {
    const deck = field(name('game'), 'deck');
    expect(strip(stmts('shuffle game.deck\ndraw c from game.deck\ndraw d from bottom of game.deck\nput c on top of game.deck\nput d on bottom of game.deck\nremove c from game.deck'))).toEqual([
      { kind: 'shuffle', target: deck },
      { kind: 'draw', name: 'c', from: deck, end: 'top' },
      { kind: 'draw', name: 'd', from: deck, end: 'bottom' },
      { kind: 'put', value: name('c'), end: 'top', into: deck },
      { kind: 'put', value: name('d'), end: 'bottom', into: deck },
      { kind: 'remove', value: name('c'), from: deck },
    ]);
  });

  it('a call on its own line is a statement', () => {
    expect(strip(stmt('layBoard(large1a, large1b)'))).toEqual({ kind: 'call', call: call('layBoard', name('large1a'), name('large1b')) });
  });
});

describe('parser: expressions', () => {
  it('binds by precedence: where < or < and < not < comparison < range < + - < * / % < unary < postfix', () => {
    expect(strip(expr('xs where a or b and not c == d'))).toEqual({
      kind: 'where',
      source: name('xs'),
      cond: bin('or', name('a'), bin('and', name('b'), { kind: 'unary', op: 'not', operand: bin('==', name('c'), name('d')) })),
    });
    expect(strip(expr('1 + 2 * -x.y .. 3 % 2'))).toEqual({
      kind: 'range',
      from: bin('+', num(1), bin('*', num(2), { kind: 'unary', op: '-', operand: field(name('x'), 'y') })),
      to: bin('%', num(3), num(2)),
    });
    expect(strip(expr('a - b - c'))).toEqual(bin('-', bin('-', name('a'), name('b')), name('c')));
    expect(strip(expr('a - (b - c)'))).toEqual(bin('-', name('a'), bin('-', name('b'), name('c'))));
    expect(strip(expr('r in inPlay()'))).toEqual(bin('in', name('r'), call('inPlay')));
  });

  it('if-then-else, lists, literals, calls and fields named by keywords', () => {
    expect(strip(expr('if n == 5 then [1, 2] else []'))).toEqual({ kind: 'if', cond: bin('==', name('n'), num(5)), then: { kind: 'list', items: [num(1), num(2)] }, else: { kind: 'list', items: [] } });
    expect(strip(expr('[true, false, none]'))).toEqual({ kind: 'list', items: [{ kind: 'bool', value: true }, { kind: 'bool', value: false }, none] });
    expect(strip(expr('max(game.turn, min(a, b))'))).toEqual(call('max', field(name('game'), 'turn'), call('min', name('a'), name('b'))));
  });

  it('texts: escapes, literal braces, and holes parsed with their positions', () => {
    const src = 'log "a \\"q\\" {{x}} {count(xs) + 1}!"';
    const s = stmt(src) as A.LogStmt;
    expect(strip(s.text)).toEqual(str('a "q" {x}} ', bin('+', call('count', name('xs')), num(1)), '!'));
    const hole = s.text.parts[1] as A.Expr;
    const text = `flow {\n${src}\n}`;
    expect(text.slice(hole.span.start, hole.span.end)).toBe('count(xs) + 1');
  });

  it('guards and reach: the kind protected, the fields listed, the condition, the body', () => {
    const g = one('guard inReach(r: region) of tokens, owner when r.owner != me { require not r.resting else "no" }') as A.GuardDecl;
    expect(strip({ name: g.name, params: g.params, fields: g.fields, when: g.when })).toEqual({ name: 'inReach', params: [{ name: 'r', type: type('region') }], fields: names('tokens', 'owner'), when: bin('!=', field(name('r'), 'owner'), name('me')) });
    expect(g.body.stmts.map((s) => s.kind)).toEqual(['require']);
    expect(strip(stmts('reach r.next'))).toEqual([{ kind: 'reach', target: field(name('r'), 'next') }]);
  });

  it('types', () => {
    expect(strip(parseType('list<region?>?').value)).toEqual(type('list', { element: type('region', { optional: true }), optional: true }));
  });
});

describe('parser: syntax errors in the author’s words, at the right place', () => {
  const cases: Array<[src: string, message: string, at: string]> = [
    // [rules, message, the text the error points at (`⟂` for an empty span at the marker's place)]
    ['flow { let = 3 }', 'expected a name after `let` but found `=`', '='],
    ['proc a() {\n  if x {\n  }\n', 'expected `}` but found the end of the rules', '⟂'],
    ['fn f(): number', 'expected `=` but found the end of the rules', '⟂'],
    ['fn (x: number): number = 1', 'expected a name after `fn` but found `(`', '('],
    ['flow { for in xs { } }', 'expected a name after `for` but found `in`', 'in'],
    ['flow { x = }', 'expected a value (a name, a number, a quoted text, `(`, `[`, `-` or `not`) but found `}`', '}'],
    ['on e when { }', 'expected a value (a name, a number, a quoted text, `(`, `[`, `-` or `not`) but found `{`', '{'],
    ['flow { require x "why" }', 'expected `else` but found `"why"`', '"why"'],
    ['flow { loop 5 { } }', 'expected `max` after `loop` but found `5`', '5'],
    ['flow { put x on deck }', 'expected `top` or `bottom` (`put x on top of pile`) but found `deck`', 'deck'],
    ['flow { if a { } else b }', 'expected `if` or `{` after `else` but found `b`', 'b'],
    ['action a limit 2 per round { }', 'expected `turn` or `game` after `per` but found `round`', 'round'],
    ['modify m by someone = 1', 'expected `anyone` after `by` but found `someone`', 'someone'],
    ['flow { x.y = 1 @ }', 'unexpected character `@`', '@'],
    ['fn f(): number = 1 2', 'unexpected `2`: a declaration (event, fn, pipeline, check, proc, action, on, modify, setup, flow, guard or invariant) or the end of the rules was expected', '2'],
    ['event e(x)', 'expected `:` but found `)`', ')'],
    ['banana', 'unexpected `banana`: a declaration (event, fn, pipeline, check, proc, action, on, modify, setup, flow, guard or invariant) or the end of the rules was expected', 'banana'],
  ];
  for (const [src, message, at] of cases) {
    it(`${JSON.stringify(src)} → ${message}`, () => {
      const r = parseRules(src);
      expect(r.value).toBeUndefined();
      expect(r.errors).toHaveLength(1);
      const e = r.errors[0];
      expect(e.message).toBe(message);
      if (at === '⟂') expect(e.span.end).toBe(e.span.start);
      else expect(src.slice(e.span.start, e.span.end)).toBe(at);
    });
  }

  it('the end of the rules is shown after the last word, not on the blank lines below', () => {
    const src = 'proc a() {\n  if x {\n  }\n\n\n';
    const e = parseRules(src).errors[0];
    expect(e.span.start).toBe(src.indexOf('}') + 1);
  });

  it('expressions and types say what may follow them', () => {
    expect(parseExpression('a b').errors).toEqual([{ message: 'unexpected `b`: the value is complete before it (an operator such as `and`, `==` or `+` may be missing)', span: { start: 2, end: 3 } }]);
    expect(parseExpression('a +').errors).toEqual([{ message: 'expected a value (a name, a number, a quoted text, `(`, `[`, `-` or `not`) but found the end of the rules', span: { start: 3, end: 3 } }]);
    expect(parseType('region list').errors).toEqual([{ message: 'unexpected `list`: a type is one word, such as `region?` or `list<race>`', span: { start: 7, end: 11 } }]);
    expect(parseType('list<').errors).toEqual([{ message: 'expected a name but found the end of the rules', span: { start: 5, end: 5 } }]);
  });
});

describe('parser: recovery', () => {
  it('leaves out a broken declaration, keeps the others, and names the broken one', () => {
    const r = parseRules('fn f(): number = 1 +\ninvariant "held" = true\nproc p() { let = 3 }\non e { log "ok" }\naction a { put x on top of }\nfn g(): number = 2');
    expect(r.value).toBeUndefined();
    expect(r.errors.map((e) => e.message)).toEqual([
      'expected a value (a name, a number, a quoted text, `(`, `[`, `-` or `not`) but found `invariant`',
      'expected a name after `let` but found `=`',
      'expected a value (a name, a number, a quoted text, `(`, `[`, `-` or `not`) but found `}`',
    ]);
    expect(r.decls.map((d) => `${d.kind} ${d.name}`)).toEqual(['invariant invariant', 'on e', 'fn g']);
    expect(r.broken).toEqual(['f', 'p', 'a']);
  });

});

/**
 * Grammar apart from meaning: the parser reads a value where a statement, a field or a hole's value
 * belongs, and the checker says why it cannot stand there, with a code of its own and the caret
 * under what was written.
 */
describe('parser reads, checker refuses: values where a statement, a field or a hole belongs', () => {
  const game = (rules: string) =>
    `kinds:\n  player:\n    state:\n      coins: number\n      hand: list<number>\nrules: |\n  fn f(): number = 1\n  action pass "Pass" { }\n  flow {\n    ${rules}\n    for p in players { turn p { offer p: pass } }\n  }\n`;
  const cases: Array<[rules: string, code: string, message: string, at: string]> = [
    ['3', 'RB0565', 'A number on its own does nothing: a statement is an assignment, a call or a keyword statement', '3'],
    ['f() == 2', 'RB0565', 'A comparison on its own does nothing: a statement is an assignment, a call or a keyword statement', 'f() == 2'],
    ['f() = 3', 'RB0564', 'only a field can be assigned, such as `me.coins` or `r.tokens`; this is a call of `f`', 'f()'],
    ['shuffle 3', 'RB0566', '`shuffle` changes a list field, such as `game.deck`; this is a number', '3'],
    ['draw c from f()', 'RB0566', '`draw` changes a list field, such as `game.deck`; this is a call of `f`', 'f()'],
    ['log "a {b"', 'RB0567', 'unclosed `{` in text: write `{{` for a literal brace', '{b"'],
    ['log "a {1 +} b"', 'RB0568', 'this `{…}` in a text holds no value: expected a value (a name, a number, a quoted text, `(`, `[`, `-` or `not`) but found the `}` that closes the hole', '}'],
  ];
  for (const [rules, code, message, at] of cases) {
    it(`${rules} → ${code}`, () => {
      const parsed = parseRules(`flow { ${rules} }`);
      expect(parsed.errors).toEqual([]);
      expect(parsed.broken).toEqual([]);
      const yaml = game(rules);
      const ds = diagnosticsOf(yaml).filter((d) => d.code !== 'RB0540');
      expect(ds.map((d) => [d.code, d.message])).toEqual([[code, message]]);
      const d = ds[0];
      const line = yaml.split('\n')[d.line - 1];
      expect(d.file).toBe('game.yaml');
      expect(line.slice(d.column - 1, d.endColumn - 1)).toBe(at);
      expect(d.hint).toBeTruthy();
    });
  }

  it('a broken statement leaves its declaration in the tree, so its uses are not reported twice', () => {
    const r = parseRules('proc p() { 3 }\nproc q() { log "{1 +}" }\nfn ok(): number = 1');
    expect(r.errors).toEqual([]);
    expect(r.decls.map((d) => d.name)).toEqual(['p', 'q', 'ok']);
    expect(r.broken).toEqual([]);
  });
});
