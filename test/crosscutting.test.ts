/**
 * Cross-cutting rules stated once: a field changed only through named procedures
 * (`loweredOnlyBy` …), shared legality checks (`check`), and card-local helpers (`fn` in a card's
 * rules). Each on a small pack written here, through the real compiler and runtime.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame } from '../runtime/index.ts';
import { compileOk, diagnosticsOf } from './helpers/inlinePack.ts';

const codes = (yaml: string) => diagnosticsOf(yaml).filter((d) => d.severity === 'error').map((d) => `${d.code}@${d.line}`);

/** Regions whose tokens leave only through `lose`, which tells the cards; cards (`trick`) may add rules. */
const board = (cardRules: string, gameRules = '', field = 'loweredOnlyBy: [lose]') => `
kinds:
  region:
    state:
      tokens: { type: number, default: 3, ${field} }
      seen: list<region>
  trick:
    roles:
      active: players
  player:
    state:
      losses: number
entities:
  - region: a
  - region: b
  - trick: t
    rules: |
${cardRules.split('\n').map((l) => `      ${l}`).join('\n')}
rules: |
  event lost(r: region, n: number)
  proc lose(r: region, n: number) {
    r.tokens -= min(n, r.tokens)
    emit lost(r, n)
  }
  action grab(r: region in regions) "Take from {r}" {
    lose(r, 1)
  }
${gameRules.split('\n').map((l) => `  ${l}`).join('\n')}
  flow {
    for p in players { turn p { offer p: grab } }
  }
`;

describe('fields changed only by named procedures', () => {
  it('let the named procedure lower the field, and the cards call it', () => {
    const pack = compileOk(board('action steal(r: region in regions) with grab {\n  lose(r, 2)\n}\non lost(r, n) {\n  holder.losses += n\n}'));
    const st = newGame(pack, { players: 1, seed: 1 });
    expect(legalChoices(st).map((c) => c.id)).toContain('t.steal a');
    const r = apply(st, 't.steal a');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.state.e.a.tokens).toBe(1);
      expect(r.state.e.p1.losses).toBe(2);
    }
  });

  it('make a card that lowers the field itself a compile error at the write, with the procedure to call', () => {
    const ds = diagnosticsOf(board('action steal(r: region in regions) with grab {\n  r.tokens -= 1\n}'));
    expect(ds.map((d) => d.code)).toEqual(['RB0557']);
    expect(ds[0].message).toBe('`r.tokens` is lowered here, but a region’s `tokens` is lowered only by `lose`');
    expect(ds[0].hint).toContain('`lose(r, n)`');
    expect(ds[0].line).toBe(19);
  });

  it('count `=` as a change either way, `+=` of a negative amount as a lowering, and leave raising free', () => {
    expect(codes(board('action steal(r: region in regions) with grab {\n  r.tokens = 0\n}'))).toEqual(['RB0557@19']);
    expect(codes(board('action steal(r: region in regions) with grab {\n  r.tokens += -2\n}'))).toEqual(['RB0557@19']);
    expect(codes(board('action give(r: region in regions) with grab {\n  r.tokens += 2\n}'))).toEqual([]);
  });

  it('hold the game’s own rules outside the procedures to it too', () => {
    expect(codes(board('on lost(r, n) { holder.losses += n }', 'setup { a.tokens -= 1 }'))).toEqual(['RB0557@28']);
  });

  it('guard raising and lists: `put` raises, `remove` and `draw` lower', () => {
    const lists = (stmt: string, field: string) =>
      board(`action x(r: region in regions) with grab {\n  ${stmt}\n}`, 'proc see(r: region, o: region) { put o on top of r.seen }', 'loweredOnlyBy: [lose]').replace('seen: list<region>', `seen: { type: list<region>, ${field} }`);
    expect(codes(lists('put b on top of r.seen', 'raisedOnlyBy: [see]'))).toEqual(['RB0557@19']);
    expect(codes(lists('remove b from r.seen', 'raisedOnlyBy: [see]'))).toEqual([]);
    expect(codes(lists('draw s from r.seen', 'changedOnlyBy: [see]'))).toEqual(['RB0557@19']);
  });

  it('report a name that is no procedure at the list item, with a guess', () => {
    const ds = diagnosticsOf(board('on lost(r, n) { holder.losses += n }', '', 'loweredOnlyBy: [loose]'));
    expect(ds.map((d) => d.code)).toEqual(['RB0558']);
    expect(ds[0].message).toBe('`loose` is not a procedure of this pack, so it cannot be named in `loweredOnlyBy` of `region.tokens`');
    expect(ds[0].hint).toBe('did you mean `lose`?');
    expect(ds[0].line).toBe(5);
  });
});
