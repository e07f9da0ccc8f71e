/**
 * A `turn` runs its body with the turn's player as `me` and gives the rules around it back their own
 * once it ends: generated, the body runs in the context around it, its `me` set for the body alone
 * (runtime/codegen/emitFlow.ts), where the interpreter makes a context of its own. A turn inside a
 * turn, then an offer to `me` and a write by `me` after it, checked on both engines against each
 * other, stepped and driven, stopped anywhere, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame, playDriven, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { picker } from './helpers/seededGame.ts';

const ENGINES: EngineName[] = ['generated', 'interpreter'];

const rules = `kinds:
  game:
    state:
      n: number
      last: player?
rules: |
  action go "Go" { game.n += 1 }
  flow {
    loop max 3 {
      for p in players {
        turn p {
          for q in players { turn q { offer q: go } }
          offer me: go
          game.last = me
        }
      }
    }
  }
`;

describe('a turn inside a turn', () => {
  const pack = compileOk(rules, { min: 3, max: 3 });

  it('offers the outer turn’s player after the inner turns end, stepped, on both engines alike', () => {
    const games = ENGINES.map((engine) => {
      let st: GameState = newGame(pack, { players: 3, seed: 1, engine });
      const asked: string[] = [];
      const states: string[] = [];
      while (!st.over) {
        asked.push(st.prompt!.player);
        const r = apply(st, legalChoices(st)[0]);
        if (!r.ok) throw new Error(r.reason);
        st = r.state;
        states.push(JSON.stringify(st));
      }
      return { asked, states };
    });
    expect(games[0]).toEqual(games[1]);
    // Each round of the outer turn: the three inner turns, then its own player again.
    expect(games[0].asked.slice(0, 8)).toEqual(['p1', 'p2', 'p3', 'p1', 'p1', 'p2', 'p3', 'p2']);
    expect(JSON.parse(games[0].states[3]).e.game.last).toBe('p1');
  });

  it('is driven to the same game, and stopped anywhere, suspended with the same frames', () => {
    for (const cap of [1, 3, 4, 7, 8, Infinity]) {
      for (const exact of [true, false]) {
        const [gen, ref] = ENGINES.map((engine) => {
          const st = newGame(pack, { players: 3, seed: 2, engine });
          playoutChoices(st);
          const pick = picker(`turns ${cap}`);
          let made = 0;
          const end = playDriven(st, (n) => (made++ < cap ? pick(n) : -1), { exact });
          return { end, state: JSON.stringify(st) };
        });
        expect(gen, `cap ${cap} exact ${exact}`).toEqual(ref);
        expect(gen.end.made, `cap ${cap}`).toBe(Math.min(cap, 36));
      }
    }
  });
});
