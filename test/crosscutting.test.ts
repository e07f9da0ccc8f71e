/**
 * Cross-cutting rules stated once: a field changed only through named procedures
 * (`loweredOnlyBy` …), shared legality checks (`check`), and card-local helpers (`fn` in a card's
 * rules). Each on a small pack written here, through the real compiler and runtime.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
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

/** A core check shared by the game's action and a card's, with a nested check and its own `let`. */
const checked = (extra = '') => `
kinds:
  region:
    state:
      tokens: { type: number, default: 2 }
      closed: bool
  trick:
    roles:
      active: players
  player:
    state:
      coins: { type: number, default: 3 }
entities:
  - region: a
  - region: b
  - trick: t
    rules: |
      action raid(r: region in regions) "Raid {r}" with attack {
        require canAttack(r)
        r.tokens = 0
      }
rules: |
  check open(r: region) {
    require not r.closed else "{r} is closed"
  }
  check canAttack(r: region) {
    require open(r)
    let cost = 1 + r.tokens
    require me.coins >= cost else "attacking {r} costs {cost} coins"
  }
  action attack(r: region in regions) "Attack {r}" {
    let extra = 0
    require canAttack(r)
    me.coins -= 1 + r.tokens + extra
  }
  action pass "Pass" { }
${extra}
  flow {
    for p in players { turn p { offer p: attack, pass } }
  }
`;

describe('shared checks', () => {
  it('list only the choices every applied require allows, for the game’s actions and the cards’', () => {
    const pack = compileOk(checked());
    const st = newGame(pack, { players: 1, seed: 1, prepare: (s) => void ((s.e.b.closed = true), (s.e.a.tokens = 2)) });
    expect(legalChoices(st).map((c) => c.id)).toEqual(['attack a', 't.raid a', 'pass']);
  });

  it('refuse with the reason and the line of the require that failed, inside the check, and change nothing', () => {
    const pack = compileOk(checked());
    const st = newGame(pack, { players: 1, seed: 1, prepare: (s) => void ((s.e.b.closed = true), (s.e.a.tokens = 5)) });
    const closed = apply(st, 'attack b');
    expect(closed).toMatchObject({ ok: false, reason: expect.stringContaining('b is closed') });
    const poor = apply(st, 't.raid a');
    expect(poor).toMatchObject({ ok: false, reason: expect.stringContaining('attacking a costs 6 coins') });
    const line = checked().split('\n').findIndex((l) => l.includes('attacking {r} costs')) + 1;
    expect(JSON.stringify(poor)).toContain(`game.yaml:${line}`);
    expect(legalChoices(st).map((c) => c.id)).toEqual(['pass']);
  });

  it('apply the check with the caller’s values, its locals apart from the caller’s', () => {
    const pack = compileOk(checked());
    const st = newGame(pack, { players: 1, seed: 1, prepare: (s) => void (s.e.a.tokens = 1) });
    const r = apply(st, 'attack a');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.state.e.p1.coins).toBe(1);
  });

  it('are errors when misused: a require with no reason and no check, a check as a value, effects inside, a check applying itself', () => {
    const ds = diagnosticsOf(
      checked(`
  check loops(r: region) {
    require loops(r)
  }
  check busy(r: region) {
    r.tokens += 1
    require loops(r)
  }
  action odd(r: region in regions) {
    require r.tokens > 0
    require canAttack(r) else "no"
  }`),
    ).filter((d) => d.severity === 'error');
    expect(ds.map((d) => d.code).sort()).toEqual(['RB0559', 'RB0560', 'RB0561', 'RB0562']);
  });
});

/** A shipped pack with one more card file, as a designer would add it. */
function withCard(pack: string, path: string, yaml: string) {
  const files = readPackFolder(`content/${pack}`);
  return compile([...files, { path, text: yaml }]).diagnostics.filter((d) => d.severity === 'error');
}

describe('the shipped packs hold new cards to their rules stated once', () => {
  it('Small World: a new power that takes a token off a region itself does not compile; one that calls the core does', () => {
    const card = (body: string) => `entities:
  - power: zzThieves
    tokens: 4
    name: { en: Thieves, pl: Złodzieje }
    text: { en: "Take a token.", pl: "Weź żeton." }
    rules: |
      action pilfer(r: region in inPlay()) "Pilfer {r}" limit 1 per turn with conquer {
        require canConquer(r)
        ${body}
      }
`;
    const bad = withCard('smallworld-wow', 'powers/zzThieves.yaml', card('reach r\n        r.tokens -= 1'));
    expect(bad.map((d) => `${d.code} ${d.file}:${d.line}`)).toEqual(['RB0557 powers/zzThieves.yaml:10']);
    expect(bad[0].message).toContain('`discardTokens`');
    expect(withCard('smallworld-wow', 'powers/zzThieves.yaml', card('reach r\n        discardTokens(r, 1, false)'))).toEqual([]);
  });

  it('Wrath of the Lich King: a new reward that adds a ghoul itself does not compile', () => {
    const bad = withCard('wotlk', 'rewards/zzCurse.yaml', `entities:
  - reward: zzCurse
    name: { en: Curse, pl: Klątwa }
    text: { en: "A ghoul.", pl: "Ghul." }
    rules: |
      action curse(s: space) "Curse {s}" anytime {
        s.ghouls += 1
      }
`);
    expect(bad.map((d) => d.code)).toContain('RB0557');
    expect(bad.find((d) => d.code === 'RB0557')!.message).toContain('raised only by `placeGhoul` or `moveGhouls`');
  });
});

describe('card-local functions', () => {
  const cards = (a: string, b: string, game = '') => `
kinds:
  charm:
    roles:
      active: players
  player:
    state:
      score: number
entities:
  - charm: luck
    rules: |
${a.split('\n').map((l) => `      ${l}`).join('\n')}
  - charm: haste
    rules: |
${b.split('\n').map((l) => `      ${l}`).join('\n')}
rules: |
  action gain "Gain" { me.score += 1 }
${game}
  flow {
    for p in players { turn p { offer p: gain } }
  }
`;

  it('are seen by their own card only, so two cards may each have one of the same name', () => {
    const pack = compileOk(
      cards(
        'fn bonus(n: number): number = n * 10\naction use "Use luck" with gain { me.score += bonus(1) }',
        'fn bonus(n: number): number = n + 2\naction use "Use haste" with gain { me.score += bonus(1) }',
      ),
    );
    const st = newGame(pack, { players: 1, seed: 1 });
    const luck = apply(st, 'luck.use');
    const haste = apply(st, 'haste.use');
    expect(luck.ok && luck.state.e.p1.score).toBe(10);
    expect(haste.ok && haste.state.e.p1.score).toBe(3);
  });

  it('are unknown to other cards and to the game’s rules', () => {
    const ds = diagnosticsOf(cards('fn bonus(): number = 10\naction use with gain { me.score += bonus() }', 'action use with gain { me.score += bonus() }', '  fn total(): number = bonus()'));
    expect(ds.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['RB0525', 'RB0525']);
  });

  it('are declared once per card', () => {
    const ds = diagnosticsOf(cards('fn bonus(): number = 10\nfn bonus(): number = 2\naction use with gain { me.score += bonus() }', 'action use with gain { me.score += 1 }'));
    expect(ds.map((d) => d.code)).toEqual(['RB0404']);
  });
});
