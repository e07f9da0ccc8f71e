/**
 * Holders kept with the state, made stale card by card: a role that reads a field only of the
 * entities whose key field names the card (`first(spots where treasure == self and not closed).owner`)
 * loses, when such a field is written, only the holders of the card the written entity's key names
 * (`holders.ts`). Games played on the kept holders must be the games played on holders found anew
 * at every choice (a state loaded from JSON keeps nothing), on both engines; and a state shares what
 * it keeps with the states copied from it only until one writes such a field, so an earlier state
 * answers as itself whatever the later ones found.
 */
import { describe, expect, it } from 'vitest';
import { keptKinds } from '../runtime/holders.ts';
import { apply, applyInPlace, attach, cardHolders, legalChoices, newGame, type EngineName, type GameState } from '../runtime/index.ts';
import { keyedPack } from './helpers/keyedPack.ts';

const pack = keyedPack();

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

    it(`an earlier state, revisited after the states played on from it found holders, answers as itself loaded from JSON (${engine})`, () => {
      let revisited = 0;
      for (let seed = 1; seed <= 6; seed++) {
        const states = [newGame(pack, { players: 3, seed, engine })];
        let pick = seed;
        while (!states[states.length - 1].over) {
          const st = states[states.length - 1];
          // Holders found in some states and not in others: a choice that writes a field of a spot keyed
          // to a token whose holders its state has not found yet, and a next state that finds them.
          if (pick % 3 === 0) cardHolders(st);
          const legal = legalChoices(st, { labels: false });
          pick = (pick * 1103515245 + 12345) % 2147483648;
          const r = apply(st, legal[pick % legal.length].id);
          if (!r.ok) throw new Error(r.reason);
          if (pick % 2) cardHolders(r.state);
          states.push(r.state);
        }
        for (const [i, st] of states.entries()) {
          const loaded = fresh(st, engine);
          expect(cardHolders(st), `seed ${seed}, state ${i}`).toEqual(cardHolders(loaded));
          const legal = legalChoices(st, { labels: false });
          if (!legal.length) continue;
          const id = legal[(seed + i) % legal.length].id;
          const r = apply(st, id);
          const s = apply(loaded, id);
          if (!r.ok || !s.ok) throw new Error(`${id} was refused`);
          expect(JSON.stringify(r.state), `seed ${seed}, state ${i}, ${id}`).toBe(JSON.stringify(s.state));
          revisited++;
        }
      }
      expect(revisited).toBe(6 * 24);
    });
  }
});
