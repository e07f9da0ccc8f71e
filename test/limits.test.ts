/**
 * What an untrusted pack can do to the runtime: its rules always end (no `while`, no recursion), but
 * a huge `repeat`, range or ring of events could still hold the playground for minutes. Each is
 * stopped, the choice refused with a reason, and the state left as it was.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame } from '../runtime/index.ts';
import { MAX_RANGE, STEP_BUDGET } from '../runtime/budget.ts';
import { compileOk } from './helpers/inlinePack.ts';

const game = (action: string) => `kinds:
  game:
    state:
      n: number
rules: |
  ${action.replace(/\n/g, '\n  ')}
  action rest "Rest" { }
  flow {
    for p in players {
      repeat 2 {
        turn p { offer p: spin, rest }
      }
    }
  }
`;

function refusal(action: string): { reason: string; before: string; after: string } {
  const pack = compileOk(game(action));
  const st = newGame(pack, { players: 1, seed: 1 });
  const before = JSON.stringify(st);
  const spin = legalChoices(st).find((c) => c.action === 'spin')!;
  const r = apply(st, spin.id);
  expect(r.ok).toBe(false);
  return { reason: r.ok ? '' : r.reason, before, after: JSON.stringify(st) };
}

describe('limits on what one choice may run', () => {
  it(`refuses a choice whose rules run more than ${STEP_BUDGET} steps`, () => {
    const r = refusal('action spin "Spin" {\n  repeat 1000000000 {\n    game.n += 1\n  }\n}');
    expect(r.reason).toContain('ran more than 2,000,000 steps for one choice');
    expect(r.after).toBe(r.before);
  });

  it('counts the rounds of an empty loop too', () => {
    const r = refusal('action spin "Spin" {\n  loop max 1000000000 {\n  }\n}');
    expect(r.reason).toContain('steps for one choice');
  });

  it(`refuses a range of more than ${MAX_RANGE} numbers rather than filling the memory`, () => {
    const r = refusal('action spin "Spin" {\n  for i in 1..1000000000 {\n    game.n += i\n  }\n}');
    expect(r.reason).toBe('the range 1..1000000000 holds more than 100,000 numbers (the range budget)');
    expect(r.after).toBe(r.before);
  });

  it('leaves long but finite work alone, and gives the next choice a fresh budget', () => {
    const pack = compileOk(game('action spin "Spin" {\n  repeat 600000 {\n    game.n += 1\n  }\n}'));
    let st = newGame(pack, { players: 1, seed: 1 });
    for (let i = 0; i < 2; i++) {
      const r = apply(st, 'spin');
      expect(r.ok).toBe(true);
      st = r.state;
    }
    expect(st.e.game.n).toBe(1_200_000);
  });

  it('stops a game whose setup runs too long, with the reason', () => {
    const pack = compileOk(`kinds:
  game:
    state:
      n: number
rules: |
  setup {
    repeat 1000000000 {
      game.n += 1
    }
  }
  flow { }
`);
    expect(() => newGame(pack, { players: 1, seed: 1 })).toThrow(/could not be set up: the rules ran more than/);
  });
});
