/**
 * Protected targets: a `guard` in a pack's own rules, applied by `reach`, and the compiler pass that
 * holds every card to it (compiler/guards.ts). On a small game of its own and on Small World, whose
 * regions are guarded by `inReach` (immunity, the Aegis' ward).
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { apply, legalChoices, newGame } from '../runtime/index.ts';
import { compileOk, diagnosticsOf } from './helpers/inlinePack.ts';

/** Cells guarded against every card: a resting cell is out of reach, another player's costs a coin. */
const game = (card: string) => `
kinds:
  cell:
    state:
      owner: player?
      stones: number
      resting: bool
      note: number
  player:
    state:
      coins: number
  charm:
    roles:
      held: players
entities:
  - cell: a
  - cell: b
  - charm: lucky
    rules: |
${card
  .trim()
  .split('\n')
  .map((l) => `      ${l}`)
  .join('\n')}
rules: |
  guard inReach(c: cell) of stones, owner when c.owner != none and c.owner != me {
    require not c.resting else "{c} is resting"
    require me.coins >= 1 else "reaching {c} costs a coin"
    me.coins -= 1
    c.owner.coins += 1
    log "{me} pays {c.owner} to reach {c}"
  }
  setup {
    for p in players { p.coins = 3 }
    a.owner = last(players)
    a.stones = 2
    b.owner = last(players)
    b.resting = true
  }
  action pass "Pass" { }
  flow { loop max 3 { for p in players { offer p: pass } } }
`;

const errors = (card: string) => diagnosticsOf(game(card)).filter((d) => d.severity === 'error');

describe('a card must reach a guarded entity before it changes it', () => {
  it('a change without `reach` is RB0620 at the change, with the guard named and the fix', () => {
    const [d, ...rest] = errors('action take(c: cell) "Take {c}" with pass { c.stones -= 1 }');
    expect(rest).toEqual([]);
    expect(d.code).toBe('RB0620');
    expect(d.message).toBe('this card changes `c.stones` without `reach c` before it; every cell is guarded by `inReach`');
    expect(d.hint).toContain('`reach c`');
  });

  it('`reach` first compiles; fields the guard does not list stay free', () => {
    expect(errors('action take(c: cell) "Take {c}" with pass {\n  reach c\n  c.stones -= 1\n  c.note += 1\n}')).toEqual([]);
    expect(errors('action mark(c: cell) "Mark {c}" with pass { c.note += 1 }')).toEqual([]);
  });

  it('a `reach` on one branch of an `if`, or inside a loop, does not cover a change after it', () => {
    const branch = errors('action take(c: cell) "Take {c}" with pass {\n  if me.coins > 1 { reach c }\n  c.stones -= 1\n}');
    expect(branch.map((d) => d.code)).toEqual(['RB0620']);
    const loop = errors('action sweep "Sweep" with pass {\n  for c in cells { reach c }\n  for c in cells { c.owner = none }\n}');
    expect(loop.map((d) => d.code)).toContain('RB0620');
    expect(errors('action take(c: cell) "Take {c}" with pass {\n  if me.coins > 1 { reach c } else { reach c }\n  c.stones -= 1\n}')).toEqual([]);
  });
});

describe('reaching applies the guard', () => {
  const pack = compileOk(game('action take(c: cell) "Take {c}" with pass {\n  reach c\n  c.stones -= 1\n}'));

  it('lists only the choices the guard allows, refuses the others with its reason, and pays its toll once', () => {
    const st = newGame(pack, { players: 2, seed: 1 });
    const ids = legalChoices(st).map((c) => c.id);
    expect(ids).toContain('lucky.take a');
    expect(ids).not.toContain('lucky.take b');
    const refused = apply(st, 'lucky.take b');
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.reason).toBe('b is resting');
    const r = apply(st, 'lucky.take a');
    expect(r.ok).toBe(true);
    const e = r.state.e;
    expect([e.a.stones, e.p1.coins, e.p2.coins]).toEqual([1, 2, 4]);
  });

  it('is a value: `inReach(c)` tells whether the guard allows `c`', () => {
    const valued = compileOk(game('action take(c: cell in (cells where inReach(it))) "Take {c}" with pass {\n  reach c\n  c.stones -= 1\n}'));
    const ids = legalChoices(newGame(valued, { players: 2, seed: 1 })).map((c) => c.id);
    expect(ids.filter((x) => x.startsWith('lucky.take'))).toEqual(['lucky.take a']);
  });
});

describe('Small World guards its regions', () => {
  it('a new card that changes a region without `reach` does not compile; with it, it does', () => {
    const card = (body: string) => `entities:
  - power: zzRaiders
    tokens: 4
    name: { en: Raiders, pl: Najeźdźcy }
    text: { en: "Burn a fortress.", pl: "Spal twierdzę." }
    rules: |
      action burn(r: region in inPlay()) "Burn {r}" limit 1 per turn with conquer {
        ${body}
        r.fortress = false
      }
`;
    const withCard = (yaml: string) => compile([...readPackFolder('content/smallworld-wow'), { path: 'powers/zzRaiders.yaml', text: yaml }]).diagnostics.filter((d) => d.severity === 'error');
    const bad = withCard(card('require r.fortress else "no fortress"'));
    expect(bad.map((d) => `${d.code} ${d.file}:${d.line}`)).toEqual(['RB0620 powers/zzRaiders.yaml:9']);
    expect(bad[0].message).toContain('guarded by `inReach`');
    expect(withCard(card('reach r'))).toEqual([]);
  });
});
