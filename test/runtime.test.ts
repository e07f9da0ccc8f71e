import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame, replay, viewFor } from '../runtime/index.ts';
import { play } from './helpers/play.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { packAt } from './helpers/keptSetup.ts';


const counters = `
kinds:
  player:
    state:
      score: number
      secret: { type: number, default: 7, hidden: true }
  game:
    state:
      pile: list<number>
      rounds: number
scoring:
  score: it.score
rules: |
  action gain(n: number in 1..3) "Gain {n}" {
    require n <= 2 or me.score >= 1 else "3 needs a point first"
    me.score += n
  }
  action pass "Pass" { }
  action bonus "Bonus" limit 1 per turn {
    me.score += 10
  }
  flow {
    loop max 2 {
      game.rounds += 1
      for p in players {
        turn p {
          loop max 8 {
            offer p: gain, bonus, pass
            if p.score >= 20 { break }
          }
        }
      }
    }
  }
`;

describe('choices and refusals', () => {
  const pack = compileOk(counters);

  it('lists every legal instantiation of the offered actions, with labels', () => {
    const st = newGame(pack, { players: 2, seed: 1 });
    const ids = legalChoices(st).map((c) => c.id);
    expect(ids).toEqual(['gain 1', 'gain 2', 'bonus', 'pass']);
    expect(legalChoices(st).find((c) => c.id === 'gain 2')?.label).toBe('Gain 2');
  });

  it('refuses an illegal choice with the rule’s reason and leaves the state as it was', () => {
    const st = newGame(pack, { players: 2, seed: 1 });
    const before = JSON.stringify(st);
    const r = apply(st, 'gain 3');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe('3 needs a point first');
    const line = counters.split('\n').findIndex((l) => l.includes('3 needs a point first')) + 1;
    expect(!r.ok && r.rule).toBe(`game.yaml:${line}`);
    expect(JSON.stringify(st)).toBe(before);
    expect(apply(st, 'fly').ok).toBe(false);
    expect(apply(st, 'gain 9').ok).toBe(false);
  });

  it('refuses a choice made by a player who is not to act', () => {
    const st = newGame(pack, { players: 2, seed: 1 });
    const r = apply(st, 'pass', { player: 'p2' });
    expect(!r.ok && r.reason).toMatch(/Player 1 must act now/);
  });

  it('counts a limited action per turn and resets it at the next turn', () => {
    let st = newGame(pack, { players: 2, seed: 1 });
    st = play(st, 'bonus');
    expect(legalChoices(st).map((c) => c.id)).not.toContain('bonus');
    const r = apply(st, 'bonus');
    expect(!r.ok && r.reason).toMatch(/once per turn/);
    st = play(st, ...Array(7).fill('pass'), ...Array(8).fill('pass'));
    expect(st.prompt?.player).toBe('p1');
    expect(legalChoices(st).map((c) => c.id)).toContain('bonus');
    st = play(st, 'bonus');
    expect(st.e.p1.score).toBe(20);
  });

  it('a break inside a loop leaves the loop after a suspended offer', () => {
    let st = newGame(pack, { players: 2, seed: 1 });
    st = play(st, 'bonus', 'gain 3', 'gain 3', 'gain 3');
    expect(st.e.p1.score).toBe(19);
    expect(st.prompt?.player).toBe('p1');
    // 22 reaches the bound of 20: the loop breaks well before its 8 offers and p2 plays.
    st = play(st, 'gain 3');
    expect(st.e.p1.score).toBe(22);
    expect(st.prompt?.player).toBe('p2');
  });

  it('ends the game when the flow ends, and lists no more choices', () => {
    let st = newGame(pack, { players: 1, seed: 1 });
    for (let i = 0; i < 20 && !st.over; i++) st = play(st, "pass");
    expect(st.over).toBe(true);
    expect(st.e.game.rounds).toBe(2);
    expect(legalChoices(st)).toEqual([]);
    expect(apply(st, 'pass').ok).toBe(false);
  });
});

describe('state', () => {
  const pack = compileOk(counters);

  it('is plain JSON: it survives a JSON round trip unchanged', () => {
    const st = play(newGame(pack, { players: 2, seed: 3 }), 'gain 1', 'bonus');
    expect(JSON.parse(JSON.stringify(st))).toEqual(st);
  });

  it('replays from seed and choices to the same state, byte for byte', () => {
    const choices = ['gain 1', 'bonus', 'pass', 'gain 2', 'pass'];
    const st = play(newGame(pack, { players: 2, seed: 9 }), ...choices);
    const again = replay(pack, { players: 2, seed: 9 }, choices);
    expect(again.stoppedAt).toBeUndefined();
    expect(JSON.stringify(again.state)).toBe(JSON.stringify(st));
  });

  it('replays choices whose values read as other values (the text "true", "none"), each named by an id that says it', () => {
    // test/packs/odd-values: texts "true", "none", "false" and "b c" among an action's values.
    const odd = packAt('test/packs/odd-values');
    for (let seed = 1; seed <= 6; seed++) {
      let st = newGame(odd, { players: 2, seed });
      const ids: string[] = [];
      for (let i = 0; i < 40 && !st.over; i++) {
        const legal = legalChoices(st);
        if (!legal.length) break;
        const c = legal[(seed * 7 + i * 3) % legal.length];
        ids.push(c.id);
        const r = apply(st, c.id);
        if (!r.ok) throw new Error(r.reason);
        st = r.state;
      }
      expect(ids.some((id) => id === 'say "true"' || id === 'say "none"' || id === 'say "false"')).toBe(true);
      const again = replay(odd, { players: 2, seed }, ids);
      expect(again.stoppedAt).toBeUndefined();
      expect(JSON.stringify(again.state)).toBe(JSON.stringify(st));
    }
  });

  it('replay says where an old choice stopped being legal, and why', () => {
    const r = replay(pack, { players: 2, seed: 9 }, ['pass', 'gain 3', 'pass']);
    expect(r.stoppedAt).toEqual({ step: 1, choice: 'gain 3', reason: '3 needs a point first' });
    expect(r.state.choices).toEqual(['pass']);
  });

  it('a player view hides other players’ hidden fields, not one’s own', () => {
    const st = newGame(pack, { players: 2, seed: 1 });
    const view = viewFor(st, 'p1');
    expect(view.e.p1.secret).toBe(7);
    expect(view.e.p2.secret).toBeNull();
    expect(st.e.p2.secret).toBe(7);
  });
});

const deck = `
dice:
  d6: [1, 2, 3, 4, 5, 6]
kinds:
  game:
    state:
      deck: list<number>
      discard: list<number>
      drawn: list<number>
      rolls: list<number>
rules: |
  setup {
    game.deck = [1, 2, 3, 4, 5]
    game.discard = [7, 8, 9]
  }
  flow {
    draw low from bottom of game.deck
    game.drawn += [low]
    shuffle game.discard
    game.deck = game.discard + game.deck
    game.discard = []
    repeat 3 {
      let r = roll(d6)
      game.rolls += [r]
    }
    choose n in game.deck by current "Pick a card" {
      remove n from game.deck
      put n on top of game.discard
    }
  }
`;

describe('piles, randomness and choose', () => {
  const pack = compileOk(deck, { min: 1, max: 1 });

  it('draws from the bottom and puts the shuffled discard on top', () => {
    const st = newGame(pack, { players: 1, seed: 5 });
    const g = st.e.game as { deck: number[]; drawn: number[]; discard: number[] };
    expect(g.drawn).toEqual([5]);
    expect(g.deck.slice(3)).toEqual([1, 2, 3, 4]);
    expect([...g.deck.slice(0, 3)].sort()).toEqual([7, 8, 9]);
    expect(g.discard).toEqual([]);
  });

  it('takes every random number from the seeded generator in the state', () => {
    const a = newGame(pack, { players: 1, seed: 42 });
    const b = newGame(pack, { players: 1, seed: 42 });
    const c = newGame(pack, { players: 1, seed: 43 });
    expect(a.e.game.rolls).toEqual(b.e.game.rolls);
    expect(a.e.game.deck).toEqual(b.e.game.deck);
    expect(JSON.stringify([a.e.game.rolls, a.e.game.deck])).not.toBe(JSON.stringify([c.e.game.rolls, c.e.game.deck]));
  });

  it('asks the player to choose, then runs the rest of the rule with the pick', () => {
    let st = newGame(pack, { players: 1, seed: 5 });
    const ids = legalChoices(st).map((c) => c.id);
    expect(ids).toContain('choose 1');
    expect(legalChoices(st)[0].label).toMatch(/^Pick a card: /);
    expect(apply(st, 'choose 6').ok).toBe(false);
    st = play(st, 'choose 1');
    expect(st.e.game.discard).toEqual([1]);
    expect(st.e.game.deck).not.toContain(1);
    expect(st.over).toBe(true);
  });

  it('a setup may ask a player; then the state cannot be edited before the flow, and newGame says why', () => {
    const asking = compileOk(`kinds:
  game:
    state:
      side: number
rules: |
  setup {
    for p in take(players, 1) {
      choose n in [1, 2] by p "Pick a side" {
        game.side = n
      }
    }
  }
  action pass "Pass" { }
  flow {
    for p in players {
      turn p { offer p: pass }
    }
  }
`);
    const st = newGame(asking, { players: 1, seed: 1 });
    expect(legalChoices(st).map((c) => c.id)).toEqual(['choose 1', 'choose 2']);
    expect(() => newGame(asking, { players: 1, seed: 1, prepare: () => {} })).toThrow("the pack's setup asks Player 1 to choose (Pick a side) before the game starts");
  });
});

const cards = `
kinds:
  card:
    props:
      bonus: number
    roles:
      owned: players where self in hand
  player:
    state:
      hand: list<card>
      score: number
entities:
  - card: sword
    bonus: 2
    rules: |
      modify strength() = value + self.bonus
  - card: shield
    bonus: 1
    rules: |
      on scored(p) when p == holder {
        holder.score += self.bonus
      }
      action polish "Polish the shield" with fight {
        holder.score += 100
      }
rules: |
  event scored(p: player)
  pipeline strength(): number min 1 = 1
  action fight "Fight" {
    me.score += strength()
    emit scored(me)
  }
  flow {
    for p in players {
      turn p { offer p: fight }
    }
  }
`;

describe('cards: roles, modifiers, triggers, card actions', () => {
  const pack = compileOk(cards);

  it('applies a card’s modifier and trigger only for the player who holds it', () => {
    let st = newGame(pack, { players: 2, seed: 1, prepare: (s) => void (s.e.p1.hand = ['sword', 'shield']) });
    st = play(st, 'fight');
    // strength 1 + sword 2 = 3, then the shield's trigger adds 1.
    expect(st.e.p1.score).toBe(4);
    st = play(st, 'fight');
    expect(st.e.p2.score).toBe(1);
    const line = cards.split('\n').findIndex((l) => l.includes('on scored(p)')) + 1;
    expect(st.log.find((l) => l.text === 'shield: on scored')?.rule).toBe(`game.yaml:${line}`);
  });

  it('offers a card’s action beside the game action it names, to its holder only', () => {
    expect(legalChoices(newGame(pack, { players: 2, seed: 1 })).map((c) => c.id)).toEqual(['fight']);
    // A state is changed by `apply` or, before the first turn, by `prepare`: the runtime keeps who
    // holds each card with the state, and an edit made behind its back would not be seen.
    const st = newGame(pack, { players: 2, seed: 1, prepare: (s) => void (s.e.p1.hand = ['shield']) });
    expect(legalChoices(st).map((c) => c.id)).toEqual(['fight', 'shield.polish']);
    const r = apply(st, 'shield.polish');
    expect(r.ok && r.state.e.p1.score).toBe(100);
  });
});

describe('a named element in `where`', () => {
  const pack = compileOk(`
kinds:
  space:
    state:
      owner: player?
  player:
    state:
      big: bool
entities:
  - space: a
  - space: b
  - space: c
rules: |
  action mark "Mark the players holding two spaces or more" {
    for p in players where q: count(spaces where owner == q) >= 2 {
      p.big = true
    }
  }
  flow { for p in take(players, 1) { turn p { offer p: mark } } }
`);

  it('lets an inner `where` reach the outer element by its name', () => {
    let st = newGame(pack, { players: 2, seed: 1 });
    st.e.a.owner = 'p2';
    st.e.b.owner = 'p2';
    st.e.c.owner = 'p1';
    st = play(st, 'mark');
    expect(st.e.p2.big).toBe(true);
    expect(st.e.p1.big).toBe(false);
  });
});

describe('break after a choice in the last round of a loop', () => {
  const nested = `
kinds:
  game:
    state:
      rounds: number
      picks: list<number>
rules: |
  flow {
    loop max 3 {
      game.rounds += 1
      for p in players {
        choose n in [1, 2] by p "Pick" {
          game.picks += [n]
          if n == 2 {
            break
          }
        }
      }
    }
  }
`;

  it('leaves only the inner loop, also when the choice was in its last round', () => {
    const pack = compileOk(nested);
    // one player: every `for` round is its last; `break` must leave the `for`, not the outer loop
    let st = newGame(pack, { players: 1, seed: 1 });
    st = play(st, 'choose 2', 'choose 1', 'choose 2');
    expect(st.over).toBe(true);
    expect(st.e.game).toEqual({ rounds: 3, picks: [2, 1, 2] });
  });
});

describe('what the compiler hands over', () => {
  it('is data: a JSON copy of the rules plays the same game, choice for choice', () => {
    const pack = compileOk(counters);
    const copy = { ...pack, rules: JSON.parse(JSON.stringify(pack.rules)) };
    let a = newGame(pack, { players: 2, seed: 9 });
    let b = newGame(copy, { players: 2, seed: 9 });
    for (const id of ['gain 2', 'bonus', 'gain 3', 'pass', 'gain 1']) {
      expect(legalChoices(b)).toEqual(legalChoices(a));
      const ra = apply(a, id);
      const rb = apply(b, id);
      expect(JSON.stringify(rb)).toBe(JSON.stringify(ra));
      if (ra.ok && rb.ok) [a, b] = [ra.state, rb.state];
    }
    expect(a.e.p1.score).toBeGreaterThan(0);
  });
});
