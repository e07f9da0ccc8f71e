import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';

/** Values (fn, pipeline and its modifiers) may not call themselves, as procedures may not. */
function codes(rules: string): Array<{ code: string; message: string; line: number }> {
  const files = [
    { path: 'pack.yaml', text: 'id: rec\nversion: 0.1.0\nname: { en: Rec }\nlanguages: [en]\nplayers: { min: 1, max: 2 }\n' },
    { path: 'game.yaml', text: `kinds:\n  game:\n    state:\n      n: number\nrules: |\n${rules.replace(/^/gm, '  ')}\n  flow {\n    game.n = 1\n  }\n` },
  ];
  // Snippets declare what they test without using it: RB0540 (unused) is not what these tests are about.
  return compile(files).diagnostics.filter((d) => d.code !== 'RB0540').map((d) => ({ code: d.code, message: d.message, line: d.line }));
}

describe('recursion in values', () => {
  it('rejects a function that calls itself', () => {
    expect(codes('fn down(x: number): number = if x <= 0 then 0 else down(x - 1)')).toEqual([
      { code: 'RB0551', message: 'the function `down` can call itself (down → down), so its value could never be computed', line: 6 },
    ]);
  });

  it('rejects functions that call each other, once', () => {
    const found = codes('fn a(x: number): number = b(x) + 1\nfn b(x: number): number = a(x)');
    expect(found.map((d) => d.code)).toEqual(['RB0551']);
    expect(found[0].message).toContain('(a → b → a)');
  });

  it('rejects a pipeline whose modifier reads the pipeline itself', () => {
    const found = codes('pipeline cost(x: number): number min 1 = x\nmodify cost(x) when cost(x) > 3 = value - 1');
    expect(found.map((d) => d.code)).toEqual(['RB0551']);
    expect(found[0].message).toContain('the pipeline `cost` (with its modifiers) can call itself (cost → cost)');
  });

  it('rejects a cycle through a function and a pipeline', () => {
    const found = codes('fn base(x: number): number = cost(x)\npipeline cost(x: number): number = base(x) + 1');
    expect(found.map((d) => d.code)).toEqual(['RB0551']);
  });

  it('accepts calls that do not come back', () => {
    expect(codes('fn twice(x: number): number = x * 2\nfn quad(x: number): number = twice(twice(x))\npipeline cost(x: number): number = quad(x)\nmodify cost(x) when twice(x) > 3 = value - 1')).toEqual([]);
  });
});
