import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { diagnosticsOf, packFiles } from './helpers/inlinePack.ts';

/** A small valid game; each test breaks one thing in it. */
const base = (rules: string, extra = '') => `
enums:
  terrain: [forest, hills, swamp]
dice:
  d3: [1, 2, 3]
kinds:
  region:
    props:
      terrain: terrain
      next: list<region>
    graph: next
    state:
      owner: player?
      tokens: number
  player:
    state:
      coins: number
${extra}
entities:
  - region: north
    terrain: hills
    next: [south]
  - region: south
    terrain: forest
rules: |
${rules
  .trim()
  .split('\n')
  .map((l) => `  ${l}`)
  .join('\n')}
`;

const flow = 'flow { for p in players { turn p { offer p: pass } } }\naction pass "Pass" { }';

/** The diagnostics of a snippet; snippets declare what they test without using it, so RB0540 (unused) is left out. */
function only(rules: string, extra?: string) {
  const ds = diagnosticsOf(base(`${rules}\n${flow}`, extra)).filter((d) => d.code !== 'RB0540');
  return ds.map((d) => ({ code: d.code, line: d.line, column: d.column, message: d.message, hint: d.hint }));
}

function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

describe('the checker', () => {
  it('accepts the base game', () => {
    expect(only('')).toEqual([]);
  });

  it('names an unknown terrain, where it is, and the likely one', () => {
    const src = 'fn hilly(r: region): bool = r.terrain == hils';
    const [d] = only(src);
    const text = base(`${src}\n${flow}`);
    expect(d.code).toBe('RB0555');
    expect(d.message).toBe('unknown name `hils`: it is not a terrain of this pack');
    expect(d.hint).toBe('did you mean `hills`?');
    expect(d.line).toBe(lineOf(text, 'hils'));
    expect(d.column).toBe(text.split('\n')[d.line - 1].indexOf('hils') + 1);
  });

  it('points into a folded block (`>-`) at the line and column written, though folding joins its lines', () => {
    const text = base(flow).replace('rules: |', 'rules: |\n  fn hilly(r: region): bool = r.terrain == hills') + 'scoring:\n  score: it.coins\n  estimate: >-\n    1 +\n    count(regions where it.terain == hills)\n';
    const d = diagnosticsOf(text).find((x) => x.code !== 'RB0540')!;
    expect(d.message).toContain('terain');
    expect(d.line).toBe(lineOf(text, 'it.terain'));
    expect(d.column).toBe(text.split('\n')[d.line - 1].indexOf('terain') + 1);
  });

  it('rejects a value of the wrong type, saying both types', () => {
    const [d] = only('action give "Give" { me.coins += north }');
    expect(d.code).toBe('RB0501');
    expect(d.message).toBe('the amount of `+=` should be a number, but this is a region');
  });

  it('rejects an unknown field with a suggestion', () => {
    const [d] = only('fn t(r: region): number = r.tokkens');
    expect(d.code).toBe('RB0523');
    expect(d.hint).toBe('did you mean `tokens`?');
  });

  it('rejects a procedure that can call itself: the rule could loop forever', () => {
    const ds = only('proc a() { b() }\nproc b() { a() }');
    expect(ds.some((d) => d.code === 'RB0509' && /could loop forever/.test(d.message))).toBe(true);
  });

  it('keeps randomness out of values', () => {
    const [d] = only('fn luck(): number = roll(d3)');
    expect(d.code).toBe('RB0526');
  });

  it('requires a none check before using an optional value as a required one', () => {
    const bad = only('proc claim(r: region) { let p = r.owner\n  emitTo(p) }\nproc emitTo(p: player) { p.coins += 1 }');
    expect(bad.map((d) => d.code)).toEqual(['RB0501']);
    expect(bad[0].hint).toMatch(/may be none/);
    expect(only('proc claim(r: region) { let p = r.owner\n  if p != none { emitTo(p) } }\nproc emitTo(p: player) { p.coins += 1 }')).toEqual([]);
    expect(only('proc claim(r: region) { require r.owner != none else "empty"\n  emitTo(r.owner) }\nproc emitTo(p: player) { p.coins += 1 }')).toEqual([]);
  });

  it('rejects changing a printed property', () => {
    const [d] = only('action paint "Paint" { north.terrain = swamp }');
    expect(d.code).toBe('RB0519');
  });

  it('rejects break outside a loop and an offer of an unknown action', () => {
    expect(only('proc p() { break }').map((d) => d.code)).toEqual(['RB0516']);
    const [d] = only('proc p() { offer me: pas }');
    expect(d.code).toBe('RB0517');
    expect(d.hint).toBe('did you mean `pass`?');
  });

  it('keeps cards to on, modify and action rules, and card actions offered with a game action', () => {
    const extra = `  card:\n    roles:\n      owned: players`;
    const text = base(flow, extra).replace('entities:\n', `entities:\n  - card: relic\n    rules: |\n      proc boom() { }\n      action shine "Shine" { }\n`);
    const codes = diagnosticsOf(text).map((d) => d.code);
    expect(codes).toContain('RB0401');
    expect(codes).toContain('RB0548');
  });

  it('reports every error of a run, not only the first', () => {
    expect(only('fn a(): number = nope\nfn b(): bool = 1\nfn c(r: region): bool = r.terrain == swam').map((d) => d.code)).toEqual(['RB0521', 'RB0501', 'RB0555']);
  });

  it('reports a syntax error once and keeps checking the other declarations', () => {
    const ds = only('proc broken( { }\nfn fine(): number = missing');
    expect(ds.map((d) => d.code)).toEqual(['RB0301', 'RB0521']);
  });

  it('keeps an invariant and a modify written after a broken line, and checks them', () => {
    const ds = only('fn broken(): number = 1 +\ninvariant "a count" = count(regions)\nmodify nothing(r) = 1');
    expect(ds.map((d) => [d.code, d.message])).toEqual([
      ['RB0301', 'expected a value (a name, a number, a quoted text, `(`, `[`, `-` or `not`) but found `invariant`'],
      ['RB0501', 'an invariant should be a bool, but this is a number'],
      ['RB0507', 'there is no pipeline `nothing` to modify'],
    ]);
  });
});

describe('pack data', () => {
  it('rejects a duplicate id, pointing at the second one', () => {
    const text = base(flow).replace('  - region: south', '  - region: north\n    terrain: hills\n  - region: south');
    const ds = diagnosticsOf(text);
    expect(ds.map((d) => d.code)).toContain('RB0205');
  });

  it('rejects an unknown key in an entity with the closest field', () => {
    const text = base(flow).replace('    terrain: forest', '    terain: forest');
    const d = diagnosticsOf(text).find((x) => x.code === 'RB0208')!;
    expect(d.hint).toBe('did you mean `terrain`?');
    expect(d.line).toBe(lineOf(text, 'terain'));
  });

  it('rejects an unknown top-level key through the JSON schema', () => {
    const d = diagnosticsOf(`${base(flow)}\nrulez: x\n`).find((x) => x.code === 'RB0101')!;
    expect(d.message).toBe('unknown key `rulez` in the file');
    expect(d.hint).toBe('did you mean `rules`?');
  });

  it('reports malformed YAML with its position, never a stack trace', () => {
    const ds = diagnosticsOf('kinds:\n  region: [unclosed\n');
    expect(ds[0].code).toBe('RB0001');
    expect(ds[0].line).toBeGreaterThan(0);
  });

  it('reports a missing dependency pack', () => {
    const files = packFiles(base(flow));
    files[0].text += 'extends: elsewhere\n';
    const d = compile(files).diagnostics.find((x) => x.code === 'RB0003')!;
    expect(d.message).toBe('this pack needs the pack `elsewhere`, which was not found');
    expect(d.file).toBe('pack.yaml');
  });
});

describe('extending a pack', () => {
  const baseFiles = packFiles(base(`${flow}\nfn bonus(): number = 1`));
  const ext = (rules: string) => [
    { path: 'pack.yaml', text: 'id: ext\nversion: 0.1.0\nname: { en: Ext }\nlanguages: [en]\nplayers: { min: 1, max: 4 }\nextends: test\n' },
    { path: 'more.yaml', text: `rules: |\n  ${rules}\n` },
  ];

  it('replaces a base declaration only when told to with `override`', () => {
    expect(compile(ext('override fn bonus(): number = 2'), { dependencies: { test: baseFiles } }).diagnostics.filter((d) => d.code !== 'RB0540')).toEqual([]);
    const [d] = compile(ext('fn bonus(): number = 2'), { dependencies: { test: baseFiles } }).diagnostics;
    expect(d.code).toBe('RB0402');
    expect(d.hint).toMatch(/write `override fn bonus`/);
    const [n] = compile(ext('override fn extra(): number = 2'), { dependencies: { test: baseFiles } }).diagnostics;
    expect(n.code).toBe('RB0406');
  });

  it('counts no emit of a base declaration an override replaced: the event it alone emitted is never emitted (RB0540)', () => {
    const emitting = packFiles(base(`${flow}\nproc relay(p: player) {\n  emit ping(p)\n}`));
    const unused = (rules: string) =>
      compile(ext(rules), { dependencies: { test: emitting } })
        .diagnostics.filter((d) => d.code === 'RB0540' && d.message.includes('`ping`'))
        .map((d) => [d.file, d.message]);
    expect(unused('event ping(p: player)')).toEqual([]);
    expect(unused('event ping(p: player)\n  override proc relay(p: player) {\n    let q = p\n  }')).toEqual([['more.yaml', 'the event `ping` is never emitted, so no trigger on it ever runs']]);
  });
});

describe('rules that could run forever', () => {
  it('warns of a trigger that sets its own event off again, through a procedure', () => {
    const ds = only('event ping(p: player)\nevent pong(p: player)\non ping(p) { relay(p) }\nproc relay(p: player) { emit pong(p) }\non pong(p) { emit ping(p) }');
    expect(ds.some((d) => d.code === 'RB0531' && /can set itself off again \(ping → pong → ping\)/.test(d.message))).toBe(true);
  });

  it('accepts a chain of events that ends', () => {
    expect(only('event ping(p: player)\nevent pong(p: player)\non ping(p) { emit pong(p) }\non pong(p) { p.coins += 1 }')).toEqual([]);
  });
});

describe('declarations nothing uses', () => {
  it('RB0540: a function, pipeline or procedure never called, an event never emitted — warnings at their names', () => {
    const rules = 'fn spare(): number = 1\npipeline idle(r: region): number = 0\nproc unused() { }\nevent silent(p: player)\non silent(p) { p.coins += 1 }';
    const ds = diagnosticsOf(base(`${rules}\n${flow}`)).filter((d) => d.code === 'RB0540');
    expect(ds.map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'the function `spare` is never called'],
      ['warning', 'the pipeline `idle` is never asked for'],
      ['warning', 'the procedure `unused` is never called'],
      ['warning', 'the event `silent` is never emitted, so no trigger on it ever runs'],
    ]);
    const text = base(`${rules}\n${flow}`);
    expect(ds[0]).toMatchObject({ line: lineOf(text, 'fn spare'), column: 6 });
  });

  it('says nothing of what broken rules would have used', () => {
    const ds = diagnosticsOf(base(`fn helper(): number = 1\naction use "Use" { me.coins += helper() + nothing }\n${flow}`));
    expect(ds.map((d) => d.code)).not.toContain('RB0540');
    expect(ds.some((d) => d.severity === 'error')).toBe(true);
  });
});

describe('named elements in `where`', () => {
  it('types the name as the element and keeps it out of the rest of the rule', () => {
    expect(only('fn crowded(): list<player> = players where p: count(regions where owner == p) > 1')).toEqual([]);
    const [d] = only('fn crowded(): list<player> = players where p: count(regions where owner == p) > 1\nfn later(): bool = p == none');
    expect(d.code).toBe('RB0521');
  });
});
