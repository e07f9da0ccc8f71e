/**
 * Holders kept with the state, made stale card by card: a role that reads a field only of the
 * entities whose key field names the card (`first(spots where treasure == self and not closed).owner`)
 * loses, when such a field is written, only the holders of the card the written entity's key names
 * (`holders.ts`). Games played on the kept holders must be the games played on holders found anew
 * at every choice (a state loaded from JSON keeps nothing), on both engines.
 */
import { describe, expect, it } from 'vitest';
import { keptKinds } from '../runtime/holders.ts';
import { apply, applyInPlace, attach, cardHolders, legalChoices, newGame, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

const pack = compileOk(`
kinds:
  token:
    roles:
      active: first(spots where treasure == self and not closed).owner
  charm:
    roles:
      active: first(neighbours(first(spots where charm == self))).owner
  spot:
    props:
      next: list<spot>
    graph: next
    state:
      charm: charm?
      owner: player?
      treasure: token?
      closed: bool
  player:
    state:
      score: number
entities:
  - spot: a
    next: [b]
  - spot: b
    next: [a, c]
  - spot: c
    next: [b]
  - token: gem
    rules: |
      on took(p) when p == holder {
        holder.score += 10
      }
  - token: orb
    rules: |
      modify worth() = value + 5
  - token: key
  - charm: ring
    rules: |
      modify worth() = value + 100
rules: |
  event took(p: player)
  pipeline worth(): number = 1
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
  action bind(s: spot in spots) "Bind the ring to {s}" {
    s.charm = ring
  }
  flow {
    repeat 8 {
      for p in players {
        turn p { offer p: grab, close, hide, bind }
      }
    }
  }
`);

/** The same state with nothing kept about its cards' holders. */
function fresh(st: GameState, engine: EngineName): GameState {
  return attach(pack, JSON.parse(JSON.stringify(st)) as GameState, engine);
}

describe('holders made stale by the card an entity’s key names', () => {
  it('are found for the fields read of keyed entities only; the key field and a neighbour’s fields stay whole', () => {
    const { kindGroup, roleFields } = keptKinds(pack);
    const token = kindGroup.get('token')!;
    const charm = kindGroup.get('charm')!;
    expect(roleFields.get('owner')!.get('spot')).toEqual({ groups: [charm], keyed: [[token, 'treasure']] });
    expect(roleFields.get('closed')!.get('spot')).toEqual({ groups: [], keyed: [[token, 'treasure']] });
    expect(roleFields.get('treasure')!.get('spot')).toEqual({ groups: [token], keyed: [] });
    expect(roleFields.get('charm')!.get('spot')).toEqual({ groups: [charm], keyed: [] });
  });

  for (const engine of ['interpreter', 'generated'] as const) {
    it(`play the games holders found anew play (${engine})`, () => {
      let checked = 0;
      let changed = 0;
      let rewarded = 0;
      for (let seed = 1; seed <= 12; seed++) {
        let st = newGame(pack, { players: 3, seed, engine });
        let other = fresh(st, engine);
        let pick = seed;
        while (!st.over) {
          // Holders asked before each choice, so that what the choice writes meets holders kept.
          const before = cardHolders(st);
          expect(before).toEqual(cardHolders(fresh(st, engine)));
          const legal = legalChoices(st, { labels: false });
          pick = (pick * 1103515245 + 12345) % 2147483648;
          const id = legal[pick % legal.length].id;
          const r = seed % 2 ? applyInPlace(st, id) : apply(st, id);
          const s = apply(other, id);
          if (!r.ok || !s.ok) throw new Error(`${id} was refused`);
          st = r.state;
          other = fresh(s.state, engine);
          expect(JSON.stringify(st)).toBe(JSON.stringify(other));
          checked++;
          if (JSON.stringify(cardHolders(st)) !== JSON.stringify(before)) changed++;
        }
        if (st.players.some((p) => (st.e[p].score as number) > 10)) rewarded++;
      }
      expect(checked).toBe(12 * 24);
      // The cards changed hands, and their rules worked for their holders.
      expect(changed).toBeGreaterThan(12);
      expect(rewarded).toBeGreaterThan(0);
    });
  }
});
