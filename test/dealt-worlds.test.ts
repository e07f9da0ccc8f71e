/**
 * A search's worlds (`dealer` in runtime/agents/determinise.ts) start with what their state knows
 * of its cards' holders, made stale where a dealt hidden field changes it, as a rule's write of that
 * field makes it: the games played on from a dealt world must be those played from the same world
 * with nothing kept (loaded from JSON), on both engines, whichever hidden fields the roles read
 * (a scalar traded between entities, a key field naming the card, a list dealt from a pool).
 */
import { describe, expect, it } from 'vitest';
import { dealer, determinise } from '../runtime/agents/determinise.ts';
import { keptKinds } from '../runtime/holders.ts';
import { apply, attach, cardHolders, legalChoices, newGame, viewFor, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

const pack = compileOk(`
kinds:
  token:
    roles:
      active: first(spots where treasure == self and not closed).owner
  card:
    roles:
      active: players where self in hand
  spot:
    state:
      owner: { type: player?, hidden: true }
      treasure: { type: token?, hidden: true }
      closed: bool
  player:
    state:
      score: number
      hand: { type: list<card>, hidden: true }
entities:
  - spot: a
  - spot: b
  - spot: c
  - token: gem
    rules: |
      on took(p) when p == holder {
        holder.score += 10
      }
  - token: orb
    rules: |
      modify worth() = value + 5
  - card: ace
    rules: |
      modify worth() = value + 100
  - card: two
    rules: |
      on took(p) when p == holder {
        holder.score += 1
      }
  - card: three
rules: |
  event took(p: player)
  pipeline worth(): number = 1
  setup {
    a.treasure = gem
    b.treasure = orb
    b.owner = first(players)
    for p in players {
      a.owner = p
      p.hand = [ace, two, three]
    }
  }
  action grab(s: spot in spots) "Take {s}" {
    s.owner = me
    me.score += worth()
    emit took(me)
  }
  action close(s: spot in spots) "Close {s}" {
    s.closed = not s.closed
  }
  action hide(s: spot in spots, t: token in tokens) "Hide {t} in {s}" {
    s.treasure = t
  }
  action pass(c: card in cards) "Take {c}" {
    for p in players {
      p.hand -= [c]
    }
    me.hand += [c]
  }
  flow {
    repeat 8 {
      for p in players {
        turn p { offer p: grab, close, hide, pass }
      }
    }
  }
`);

/** The same state with nothing kept about its cards' holders. */
function fresh(st: GameState, engine: EngineName): GameState {
  return attach(pack, JSON.parse(JSON.stringify(st)) as GameState, engine);
}

function random(seed: number): () => number {
  let n = seed;
  return () => (n = (n * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** `st` and `other` played on by the same picks to the end, the same states at every choice, holders asked before each. */
function playedAlike(st: GameState, other: GameState, engine: EngineName, seed: number): number {
  let pick = seed;
  let checked = 0;
  while (!st.over) {
    expect(cardHolders(st)).toEqual(cardHolders(other));
    const legal = legalChoices(st, { labels: false });
    expect(legal).toEqual(legalChoices(other, { labels: false }));
    pick = (pick * 1103515245 + 12345) % 2147483648;
    const r = apply(st, legal[pick % legal.length].id);
    const s = apply(other, legal[pick % legal.length].id);
    if (!r.ok || !s.ok) throw new Error('a listed choice was refused');
    st = r.state;
    other = fresh(s.state, engine);
    expect(JSON.stringify(st)).toBe(JSON.stringify(other));
    checked++;
  }
  return checked;
}

describe('a dealt world keeps what its state knows of the holders, but what the deal changes', () => {
  it('the roles read every kind of hidden field a deal writes', () => {
    const { roleFields } = keptKinds(pack);
    expect(roleFields.get('owner')?.get('spot')).toBeDefined();
    expect(roleFields.get('treasure')?.get('spot')).toBeDefined();
    expect(roleFields.get('hand')?.get('player')).toBeDefined();
  });

  for (const engine of ['interpreter', 'generated'] as const) {
    it(`plays the games a world with nothing kept plays (${engine})`, () => {
      let worlds = 0;
      let moved = 0;
      let checked = 0;
      for (let seed = 1; seed <= 8; seed++) {
        let st = newGame(pack, { players: 3, seed, engine });
        for (let step = 0; step < 2 * seed + 3; step++) {
          const legal = legalChoices(st, { labels: false });
          const r = apply(st, legal[(seed * 7 + step * 5) % legal.length].id);
          if (!r.ok) throw new Error(r.reason);
          st = r.state;
        }
        // Asked first, so that the state knows its holders when its worlds are dealt.
        const known = cardHolders(st);
        const before = JSON.stringify(st);
        const deal = dealer(pack, st, ['p1']);
        const rnd = random(seed);
        for (let k = 0; k < 4; k++) {
          const world = deal(rnd);
          worlds++;
          if (JSON.stringify(cardHolders(fresh(world, engine))) !== JSON.stringify(known)) moved++;
          expect(viewFor(world, 'p1').e).toEqual(viewFor(st, 'p1').e);
          checked += playedAlike(world, fresh(world, engine), engine, seed * 10 + k);
        }
        expect(JSON.stringify(st)).toBe(before);
        expect(cardHolders(st)).toEqual(known);
      }
      expect(worlds).toBe(32);
      // The deals moved cards to other holders, which a world keeping its state's holders whole would miss.
      expect(moved).toBeGreaterThan(8);
      expect(checked).toBeGreaterThan(100);
    });
  }

  it('deals what determinise deals, world for world, from the same draws', () => {
    const st = newGame(pack, { players: 3, seed: 4, engine: 'generated' });
    const a = random(9);
    const b = random(9);
    const deal = dealer(pack, st, ['p2']);
    for (let k = 0; k < 5; k++) expect(JSON.stringify(deal(a))).toBe(JSON.stringify(determinise(pack, st, ['p2'], b)));
  });
});
