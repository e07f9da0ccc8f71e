import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readPackFolder } from '../compiler/packFolder.ts';
import type * as A from '../dsl/ast.ts';
import { keywordSet } from '../dsl/lexer.ts';
import { parseExpression, parseRules, parseType } from '../dsl/parser.ts';
import { printExpr, printProgram, printStmt, printType } from '../dsl/printer.ts';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** The tree without positions: what two parses of the same rules must agree on. */
function stripSpans<T>(node: T): T {
  if (Array.isArray(node)) return node.map(stripSpans) as T;
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'span' || k.endsWith('Span') || v === undefined) continue;
      out[k] = stripSpans(v);
    }
    return out as T;
  }
  return node;
}

/**
 * Every rules text of every pack under `content/` and `test/packs/`: each file's `rules:`, each
 * entity's `rules:`, and the expressions kept in YAML (kind roles, scoring).
 */
function packRulesTexts(): Array<{ where: string; kind: 'rules' | 'expression'; text: string }> {
  const out: Array<{ where: string; kind: 'rules' | 'expression'; text: string }> = [];
  for (const root of ['content', 'test/packs']) {
    for (const f of readPackFolder(join(repo, root)).map((x) => ({ ...x, path: `${root}/${x.path}` }))) {
      let data: Record<string, unknown>;
      try {
        data = parseYaml(f.text) as Record<string, unknown>;
      } catch {
        continue; // a malformed file is the compiler's to report
      }
      if (!data || typeof data !== 'object') continue;
      if (typeof data.rules === 'string') out.push({ where: f.path, kind: 'rules', text: data.rules });
      for (const e of (Array.isArray(data.entities) ? data.entities : []) as Array<Record<string, unknown>>) {
        if (e && typeof e === 'object' && typeof e.rules === 'string') out.push({ where: `${f.path}#${String(Object.values(e)[0])}`, kind: 'rules', text: e.rules });
      }
      for (const [kind, spec] of Object.entries((data.kinds ?? {}) as Record<string, { roles?: Record<string, unknown> } | null>)) {
        for (const [role, text] of Object.entries(spec?.roles ?? {})) {
          if (typeof text === 'string') out.push({ where: `${f.path}#kinds.${kind}.roles.${role}`, kind: 'expression', text });
        }
      }
      const scoring = data.scoring as Record<string, unknown> | undefined;
      for (const key of ['score', 'tiebreak']) {
        if (typeof scoring?.[key] === 'string') out.push({ where: `${f.path}#scoring.${key}`, kind: 'expression', text: scoring[key] as string });
      }
    }
  }
  return out;
}

function roundTripProgram(src: string): { first: A.Program; printed: string; second: A.Program } {
  const first = parseRules(src);
  expect(first.errors).toEqual([]);
  const printed = printProgram(first.value!);
  const second = parseRules(printed);
  expect(second.errors, `the printed text does not parse:\n${printed}`).toEqual([]);
  return { first: first.value!, printed, second: second.value! };
}

describe('printer: the rules of every pack', () => {
  const texts = packRulesTexts();

  it('finds the packs’ rules', () => {
    expect(texts.filter((t) => t.kind === 'rules').length).toBeGreaterThanOrEqual(6);
    expect(texts.some((t) => t.where.startsWith('content/smallworld-wow/'))).toBe(true);
    expect(texts.some((t) => t.where.startsWith('test/packs/tiny/'))).toBe(true);
  });

  for (const t of texts) {
    it(`round-trips ${t.where}`, (ctx) => {
      const parse = t.kind === 'rules' ? parseRules : parseExpression;
      const first = parse(t.text);
      // Content being edited may not parse at the moment; that is the compiler tests' concern.
      if (first.errors.length) ctx.skip();
      const printed = t.kind === 'rules' ? printProgram(first.value as A.Program) : printExpr(first.value as A.Expr);
      const second = parse(printed);
      expect(second.errors, `the printed text does not parse:\n${printed}`).toEqual([]);
      expect(stripSpans(second.value)).toEqual(stripSpans(first.value));
      // Canonical: printing the reparsed tree gives the same text again.
      const again = t.kind === 'rules' ? printProgram(second.value as A.Program) : printExpr(second.value as A.Expr);
      expect(again).toBe(printed);
    });
  }
});

describe('printer: layout', () => {
  it('prints declarations and statements in canonical form', () => {
    const src = `event claimed(s: space)
event passed
fn mine(p: player): list<space> = spaces where owner == p
pipeline claimValue(s: space): number min 1 max 2 + 3 = if s.terrain == hills then 2 else 1
action claim(s: space, n: number in 1..count(xs)) "Claim {s} for {{n}} \\"coins\\"" limit 1 per turn with pass while active, decline {
  require s.owner == none else "{s} is taken"
  s.owner = me
  me.points += claimValue(s)
  emit claimed(s)
  emit passed
  if a { break } else if b { finish } else { log "x" }
  choose optional r in regions where owner == me by current "Pick" { draw c from bottom of game.deck }
  put c on top of game.deck
  remove c from game.deck
  shuffle game.deck
  offer p: claim, pass
  turn p { loop max 5 { repeat 2 { for x in xs { f(x) } } } }
}
override on claimed(s) when s.terrain == hills while active {}
modify claimValue(s) by anyone while active when s != none = value + 1
setup {}
invariant "no {x}" = x >= 0
flow { let n = -(1 + 2) * 3 }
`;
    const { printed } = roundTripProgram(src);
    expect(printed).toBe(`event claimed(s: space)
event passed

fn mine(p: player): list<space> = spaces where owner == p

pipeline claimValue(s: space): number min 1 max 2 + 3 = if s.terrain == hills then 2 else 1

action claim(s: space, n: number in 1..count(xs)) "Claim {s} for {{n}} \\"coins\\"" limit 1 per turn with pass while active, decline {
  require s.owner == none else "{s} is taken"
  s.owner = me
  me.points += claimValue(s)
  emit claimed(s)
  emit passed
  if a {
    break
  } else if b {
    finish
  } else {
    log "x"
  }
  choose optional r in regions where owner == me by current "Pick" {
    draw c from bottom of game.deck
  }
  put c on top of game.deck
  remove c from game.deck
  shuffle game.deck
  offer p: claim, pass
  turn p {
    loop max 5 {
      repeat 2 {
        for x in xs {
          f(x)
        }
      }
    }
  }
}

override on claimed(s) when s.terrain == hills while active {}

modify claimValue(s) by anyone while active when s != none = value + 1

setup {}

invariant "no {x}" = x >= 0

flow {
  let n = -(1 + 2) * 3
}
`);
  });

  it('uses parentheses only where precedence needs them', () => {
    const cases: Array<[string, string]> = [
      ['(a + b) + c', 'a + b + c'],
      ['a + (b + c)', 'a + (b + c)'],
      ['a - (b - c)', 'a - (b - c)'],
      ['(a * b) + (c * d)', 'a * b + c * d'],
      ['(a + b) * c', '(a + b) * c'],
      ['a % (b / c)', 'a % (b / c)'],
      ['-(a.b)', '-a.b'],
      ['(-a).b', '(-a).b'],
      ['- (- a)', '--a'],
      ['(a + 1)..(b * 2)', 'a + 1..b * 2'],
      ['(a..b) == c', 'a..b == c'],
      ['a..(b..c)', 'a..(b..c)'],
      ['(a == b) == c', '(a == b) == c'],
      ['a == (b in c)', 'a == (b in c)'],
      ['not (a == b)', 'not a == b'],
      ['(not a) == b', '(not a) == b'],
      ['not (a and b)', 'not (a and b)'],
      ['(not a) and b', 'not a and b'],
      ['a or (b and c)', 'a or b and c'],
      ['(a or b) and c', '(a or b) and c'],
      ['a and (b or c)', 'a and (b or c)'],
      ['(xs where a) where b', 'xs where a where b'],
      ['xs where (ys where b)', 'xs where (ys where b)'],
      ['(xs where a or b)', 'xs where a or b'],
      ['(if a then b else c) + 1', '(if a then b else c) + 1'],
      ['if a then b else (c + 1)', 'if a then b else c + 1'],
      ['(if a then xs else ys) where z', '(if a then xs else ys) where z'],
      ['if a then xs where z else ys', 'if a then xs where z else ys'],
      ['f((a), [(b), (1..2)])', 'f(a, [b, 1..2])'],
      ['(f(x)).y.z', 'f(x).y.z'],
      ['"a {x + 1} b {{ c } \\\\ \\""', '"a {x + 1} b {{ c } \\\\ \\""'],
    ];
    for (const [src, want] of cases) {
      const parsed = parseExpression(src);
      expect(parsed.errors, src).toEqual([]);
      const printed = printExpr(parsed.value!);
      expect(printed, src).toBe(want);
      expect(stripSpans(parseExpression(printed).value), src).toEqual(stripSpans(parsed.value));
    }
  });

  it('prints types', () => {
    for (const t of ['number', 'region?', 'list<race>', 'list<list<region?>>?']) expect(printType(parseType(t).value!)).toBe(t);
  });

  it('indents a statement at a given depth', () => {
    const p = parseRules('flow { if a { b() } }').value!;
    const s = (p.decls[0] as A.FlowDecl).body.stmts[0];
    expect(printStmt(s, 1)).toBe('  if a {\n    b()\n  }');
  });
});

// ─── Random trees ───────────────────────────────────────────────────────────

const SPAN: A.Span = { start: 0, end: 0 };
const identArb = fc.stringMatching(/^[a-z_][A-Za-z0-9_]{0,6}$/).filter((s) => !keywordSet.has(s));
/** Field names may be any word, keywords included (`game.turn`, `deck.top`). */
const fieldNameArb = fc.oneof(identArb, fc.constantFrom(...keywordSet));
const calleeArb = fc.oneof({ weight: 5, arbitrary: identArb }, { weight: 1, arbitrary: fc.constantFrom('min', 'max') });
/** Text parts: anything a quoted text can hold on one line (quotes, backslashes and braces included). */
const textArb = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '{', '}', '{{', 'é', '#', '.', ':', '\t'), maxLength: 8 });
const binaryOps: A.BinaryOp[] = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', 'and', 'or', 'in'];

const typeArb: fc.Arbitrary<A.TypeRef> = fc.letrec<{ t: A.TypeRef }>((tie) => ({
  t: fc.record({
    name: identArb,
    element: fc.option(tie('t'), { nil: undefined, depthSize: 'small' }),
    optional: fc.boolean(),
    span: fc.constant(SPAN),
  }),
})).t;

/** Parts of a text as the parser leaves them: no empty texts, no two texts side by side. */
function normaliseParts(parts: Array<string | A.Expr>): Array<string | A.Expr> {
  const out: Array<string | A.Expr> = [];
  for (const p of parts) {
    if (p === '') continue;
    if (typeof p === 'string' && typeof out[out.length - 1] === 'string') out[out.length - 1] += p;
    else out.push(p);
  }
  return out;
}

/** Expressions of at most `depth` levels; holes in texts cannot hold texts (a `"` would end the outer one). */
function exprArb(depth: number, strings = true): fc.Arbitrary<A.Expr> {
  const leaves: Array<fc.Arbitrary<A.Expr>> = [
    fc.nat({ max: 1000 }).map((value): A.Expr => ({ kind: 'number', value, span: SPAN })),
    fc.boolean().map((value): A.Expr => ({ kind: 'bool', value, span: SPAN })),
    fc.constant<A.Expr>({ kind: 'none', span: SPAN }),
    identArb.map((name): A.Expr => ({ kind: 'name', name, span: SPAN })),
  ];
  if (strings) leaves.push(stringArb(depth));
  if (depth <= 0) return fc.oneof(...leaves);
  const sub = exprArb(depth - 1, strings);
  return fc.oneof(
    { weight: 4, arbitrary: fc.oneof(...leaves) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('field' as const), target: sub, field: fieldNameArb, fieldSpan: fc.constant(SPAN), span: fc.constant(SPAN) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('call' as const), callee: calleeArb, calleeSpan: fc.constant(SPAN), args: fc.array(sub, { maxLength: 3 }), span: fc.constant(SPAN) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('unary' as const), op: fc.constantFrom('-' as const, 'not' as const), operand: sub, span: fc.constant(SPAN) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('binary' as const), op: fc.constantFrom(...binaryOps), left: sub, right: sub, span: fc.constant(SPAN) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('if' as const), cond: sub, then: sub, else: sub, span: fc.constant(SPAN) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('where' as const), source: sub, cond: sub, span: fc.constant(SPAN) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('list' as const), items: fc.array(sub, { maxLength: 3 }), span: fc.constant(SPAN) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('range' as const), from: sub, to: sub, span: fc.constant(SPAN) }) },
  );
}

function stringArb(depth: number): fc.Arbitrary<A.StringExpr> {
  const part = depth > 0 ? fc.oneof({ weight: 2, arbitrary: textArb }, { weight: 1, arbitrary: exprArb(depth - 1, false) }) : textArb;
  return fc.array(part, { maxLength: 4 }).map((parts) => ({ kind: 'string' as const, parts: normaliseParts(parts), span: SPAN }));
}

/** A field to assign or pile into: `a.b`, `f(x).b.c`. Never starting with `(` (see the printer's note). */
function fieldArb(depth: number): fc.Arbitrary<A.FieldExpr> {
  const root = fc.oneof(
    identArb.map((name): A.Expr => ({ kind: 'name', name, span: SPAN })),
    fc.record({ kind: fc.constant('call' as const), callee: calleeArb, calleeSpan: fc.constant(SPAN), args: fc.array(exprArb(depth), { maxLength: 2 }), span: fc.constant(SPAN) }),
  );
  return fc.tuple(root, fc.array(fieldNameArb, { minLength: 1, maxLength: 3 })).map(([r, fields]) => {
    let e: A.Expr = r;
    for (const f of fields) e = { kind: 'field', target: e, field: f, fieldSpan: SPAN, span: SPAN };
    return e as A.FieldExpr;
  });
}

const nameSpan = { nameSpan: fc.constant(SPAN), span: fc.constant(SPAN) };

function stmtArb(depth: number): fc.Arbitrary<A.Stmt> {
  const e = exprArb(2);
  const str = stringArb(2);
  const simple: Array<fc.Arbitrary<A.Stmt>> = [
    fc.record({ kind: fc.constant('let' as const), name: identArb, value: e, ...nameSpan }),
    fc.record({ kind: fc.constant('assign' as const), target: fieldArb(1), op: fc.constantFrom('=' as const, '+=' as const, '-=' as const), value: e, span: fc.constant(SPAN) }),
    fc.constant<A.Stmt>({ kind: 'break', span: SPAN }),
    fc.constant<A.Stmt>({ kind: 'finish', span: SPAN }),
    fc.record({ kind: fc.constant('require' as const), cond: e, reason: str, span: fc.constant(SPAN) }),
    fc.record({ kind: fc.constant('offer' as const), player: e, actions: fc.array(identArb.map((name) => ({ name, span: SPAN })), { minLength: 1, maxLength: 3 }), span: fc.constant(SPAN) }),
    fc.record({ kind: fc.constant('emit' as const), event: identArb, eventSpan: fc.constant(SPAN), args: fc.array(e, { maxLength: 2 }), span: fc.constant(SPAN) }),
    fc.record({ kind: fc.constant('log' as const), text: str, span: fc.constant(SPAN) }),
    fc.record({ kind: fc.constant('shuffle' as const), target: fieldArb(1), span: fc.constant(SPAN) }),
    fc.record({ kind: fc.constant('draw' as const), name: identArb, from: fieldArb(1), end: fc.constantFrom('top' as const, 'bottom' as const), ...nameSpan }),
    fc.record({ kind: fc.constant('put' as const), value: e, end: fc.constantFrom('top' as const, 'bottom' as const), into: fieldArb(1), span: fc.constant(SPAN) }),
    fc.record({ kind: fc.constant('remove' as const), value: e, from: fieldArb(1), span: fc.constant(SPAN) }),
    fc.record({ kind: fc.constant('call' as const), callee: calleeArb, calleeSpan: fc.constant(SPAN), args: fc.array(e, { maxLength: 3 }), span: fc.constant(SPAN) }).map(
      (call): A.Stmt => ({ kind: 'call', call: call as A.CallExpr, span: SPAN }),
    ),
  ];
  if (depth <= 0) return fc.oneof(...simple);
  const b = blockArb(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: fc.oneof(...simple) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('if' as const), cond: e, then: b, else: fc.option(b, { nil: undefined }), span: fc.constant(SPAN) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('for' as const), name: identArb, source: e, body: b, ...nameSpan }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), times: e, body: b, span: fc.constant(SPAN) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('loop' as const), max: e, body: b, span: fc.constant(SPAN) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('choose' as const),
        optional: fc.boolean(),
        name: identArb,
        source: e,
        by: fc.option(e, { nil: undefined }),
        prompt: fc.option(str, { nil: undefined }),
        body: b,
        ...nameSpan,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('turn' as const), player: e, body: b, span: fc.constant(SPAN) }) },
  );
}

function blockArb(depth: number): fc.Arbitrary<A.Block> {
  return fc.record({ stmts: fc.array(stmtArb(depth), { maxLength: 3 }), span: fc.constant(SPAN) });
}

const paramsArb = (domains: boolean) =>
  fc.array(fc.record({ name: identArb, type: typeArb, domain: domains ? fc.option(exprArb(2), { nil: undefined }) : fc.constant(undefined), span: fc.constant(SPAN) }), { maxLength: 3 });
const namesArb = (min = 0) => fc.array(identArb.map((name) => ({ name, span: SPAN })), { minLength: min, maxLength: 3 });
const rolesArb = fc.record({ names: namesArb() });

const declArb: fc.Arbitrary<A.Decl> = (() => {
  const e = exprArb(3);
  const b = blockArb(2);
  const named = { name: identArb, override: fc.option(fc.constant(true as const), { nil: undefined, freq: 4 }), ...nameSpan };
  return fc.oneof(
    fc.record({ kind: fc.constant('event' as const), ...named, params: paramsArb(false) }),
    fc.record({ kind: fc.constant('fn' as const), ...named, params: paramsArb(false), returns: typeArb, body: e }),
    fc.record({ kind: fc.constant('pipeline' as const), ...named, params: paramsArb(false), returns: typeArb, min: fc.option(e, { nil: undefined }), max: fc.option(e, { nil: undefined }), body: e }),
    fc.record({ kind: fc.constant('proc' as const), ...named, params: paramsArb(false), body: b }),
    fc.record({
      kind: fc.constant('action' as const),
      ...named,
      params: paramsArb(true),
      label: fc.option(stringArb(2), { nil: undefined }),
      limit: fc.option(fc.record({ times: fc.nat({ max: 9 }), per: fc.constantFrom('turn' as const, 'game' as const), span: fc.constant(SPAN) }), { nil: undefined }),
      with: fc.option(identArb.map((name) => ({ name, span: SPAN })), { nil: undefined }),
      roles: rolesArb,
      body: b,
    }),
    fc.record({ kind: fc.constant('on' as const), ...named, binds: namesArb(), when: fc.option(e, { nil: undefined }), roles: rolesArb, body: b }),
    fc.record({ kind: fc.constant('modify' as const), ...named, binds: namesArb(), anyone: fc.boolean(), roles: rolesArb, when: fc.option(e, { nil: undefined }), value: e }),
    fc.record({ message: stringArb(2), cond: e }).map(({ message, cond }): A.Decl => ({ kind: 'invariant', name: 'invariant', nameSpan: SPAN, message, cond, span: SPAN })),
    fc.record({ body: b, override: named.override }).map(({ body, override }): A.Decl => ({ kind: 'setup', name: 'setup', nameSpan: SPAN, override, body, span: SPAN })),
    fc.record({ body: b, override: named.override }).map(({ body, override }): A.Decl => ({ kind: 'flow', name: 'flow', nameSpan: SPAN, override, body, span: SPAN })),
  );
})();

describe('printer: random trees', () => {
  it('print → parse gives back every expression', () => {
    fc.assert(
      fc.property(exprArb(4), (e) => {
        const printed = printExpr(e);
        const back = parseExpression(printed);
        expect(back.errors, printed).toEqual([]);
        expect(stripSpans(back.value)).toEqual(stripSpans(e));
      }),
      { numRuns: Number(process.env.RUNS ?? 400) },
    );
  }, 120_000);

  it('print → parse gives back every program', () => {
    fc.assert(
      fc.property(fc.array(declArb, { maxLength: 4 }), (decls) => {
        const program: A.Program = { decls };
        const printed = printProgram(program);
        const back = parseRules(printed);
        expect(back.errors, printed).toEqual([]);
        expect(stripSpans(back.value)).toEqual(stripSpans(program));
        expect(printProgram(back.value!)).toBe(printed);
      }),
      { numRuns: Number(process.env.RUNS ?? 150) },
    );
  }, 120_000);

  it('print → parse gives back every type', () => {
    fc.assert(
      fc.property(typeArb, (t) => {
        const back = parseType(printType(t));
        expect(back.errors).toEqual([]);
        expect(stripSpans(back.value)).toEqual(stripSpans(t));
      }),
    );
  });
});
