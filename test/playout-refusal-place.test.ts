/**
 * Where a refusal made by a budget or a check of the rules (`refuse`) is said to be: the statement
 * that was running, the innermost one, as the block running it names it while the refusal passes
 * (`runBlock`). Told the same by both engines, stepped or driven.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame, playDriven, playoutChoices, type CompiledPack } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

const rules = `kinds:
  spot:
    state:
      hits: number
  game:
    state:
      n: number
      target: spot?
      pile: list<number>
entities:
  - spot: s1
rules: |
  action deep "Deep" {
    for i in 1..3 {
      if i == 3 {
        for j in 1..(i * 1000000) {
          game.n += 1
        }
      }
    }
  }
  action long "Long" {
    game.n += 1
    if game.n > 0 {
      repeat 3000000 {
        game.n += 1
      }
    }
  }
  action after "After" {
    for i in 1..2 {
      game.n += i
    }
    game.n = game.n + 100 * count(1..1000000000)
  }
  action poke "Poke" {
    game.n += 1
    if game.n > 0 {
      game.target.hits += 1
    }
  }
  action pull "Pull" {
    game.n += 1
    if game.n > 0 {
      draw x from game.pile
      game.n += x
    }
  }
  action guess "Guess" {
    game.n += 1
    if game.n > 0 {
      game.n += random(3)
    }
  }
  action rest "Rest" { }
  flow {
    loop max 3 {
      for p in players {
        turn p { offer p: deep, long, after, poke, pull, guess, rest }
      }
    }
  }
`;

/** The line of the pack's `game.yaml` that holds `text`. */
function lineOf(text: string): string {
  return `game.yaml:${rules.split('\n').findIndex((l) => l.includes(text)) + 1}`;
}

const cases: Array<[action: string, at: string, reason: RegExp]> = [
  // A range too long, in a loop's list, in an `if` in a loop.
  ['deep', lineOf('for j in'), /range budget/],
  // The rounds of a `repeat` counted by the loop itself, before any statement of its body.
  ['long', lineOf('repeat 3000000'), /step budget/],
  // A statement after a loop that has finished: the statement running is the one after it.
  ['after', lineOf('100 * count'), /range budget/],
  // Checks of the rules themselves, not budgets: a write through none, a draw from an empty pile,
  // a result a scenario forced (\`rolls:\`, the state's \`forced\`) that the draw cannot have.
  ['poke', lineOf('game.target.hits += 1'), /is none here/],
  ['pull', lineOf('draw x from game.pile'), /cannot draw from game\.pile/],
  ['guess', lineOf('random(3)'), /the forced result 7 is not a number from 1 to 3/],
];

function refusedBy(pack: CompiledPack, engine: 'generated' | 'interpreter', action: string): { stepped: unknown; driven: unknown } {
  const st = newGame(pack, { players: 2, seed: 1, engine });
  st.forced = [7];
  const r = apply(st, legalChoices(st).find((c) => c.action === action)!.id);
  const stepped = r.ok ? null : { reason: r.reason, rule: r.rule, budget: r.budget };
  // Driven: rest, then the other player takes `action` at the prompt the drive lists.
  const game = newGame(pack, { players: 2, seed: 1, engine });
  game.forced = [7];
  playoutChoices(game);
  const names = legalChoices(game).map((c) => c.action);
  const end = playDriven(game, (_n, player) => (player === 'p1' ? names.indexOf('rest') : names.indexOf(action)));
  const driven = end.ok ? null : { reason: end.reason, rule: end.rule, budget: end.budget };
  return { stepped, driven };
}

describe('a refusal of the rules names the statement running', () => {
  const pack = compileOk(rules, { min: 2, max: 2 });
  for (const engine of ['interpreter', 'generated'] as const) {
    for (const [action, at, reason] of cases) {
      it(`${action}, on the ${engine}: ${at}`, () => {
        const { stepped, driven } = refusedBy(pack, engine, action);
        expect(stepped).toMatchObject({ rule: at, reason: expect.stringMatching(reason) });
        expect(driven).toEqual(stepped);
      });
    }
  }
});
