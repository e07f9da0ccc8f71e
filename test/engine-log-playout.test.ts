/**
 * In playout mode no log is kept, and a log line that surely fits the text budget is not even made
 * (runtime/log.ts `surelyFits`); its parts are still evaluated. A line that does not fit is refused
 * with the text budget's reason in both modes and both engines, the state left as it was.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TEXT } from '../runtime/budget.ts';
import { apply, legalChoices, newGame, playoutApply, playoutChoices, type EngineName } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

const game = (line: string) => `kinds:
  game:
    state:
      s: text
      n: number
rules: |
  action spin "Spin" {
    game.s = "ab"
    repeat 15 {
      game.s = game.s + game.s
    }
    game.n += 1
    log "${line}"
  }
  flow {
    loop max 3 {
      for p in players {
        turn p { offer p: spin }
      }
    }
  }
`;

const tooLong = `a text would be longer than ${MAX_TEXT.toLocaleString('en')} characters (the text budget)`;

describe('log lines in playout mode', () => {
  for (const engine of ['interpreter', 'generated'] as EngineName[]) {
    it(`refuse a line over the text budget as a logged game does (${engine})`, () => {
      const pack = compileOk(game('{game.s} and {game.s}'), { min: 1, max: 1 });
      const logged = newGame(pack, { players: 1, seed: 1, engine });
      const r = apply(logged, legalChoices(logged)[0]);
      expect(r.ok ? null : r.reason).toBe(tooLong);

      const st = newGame(pack, { players: 1, seed: 1, engine });
      const before = JSON.stringify(st);
      expect(playoutChoices(st)).toBe(1);
      const p = playoutApply(st, 0);
      expect(p.ok ? null : p.reason).toBe(tooLong);
      expect(JSON.stringify(st)).toBe(before);
    });

    it(`play a line that fits without writing it, the state as a logged game's but for the log (${engine})`, () => {
      const pack = compileOk(game('{game.n}: {game.s}'), { min: 1, max: 1 });
      let logged = newGame(pack, { players: 1, seed: 1, engine });
      const st = newGame(pack, { players: 1, seed: 1, engine });
      const started = st.log.length;
      while (!logged.over) {
        const r = apply(logged, legalChoices(logged)[0]);
        expect(r.ok).toBe(true);
        logged = r.state;
        expect(playoutChoices(st)).toBe(1);
        expect(playoutApply(st, 0).ok).toBe(true);
      }
      expect(st.over).toBe(true);
      expect(logged.log.some((l) => l.text.startsWith('3: abab'))).toBe(true);
      expect(st.log.length).toBe(started);
      expect(st.e).toEqual(logged.e);
    });
  }
});
