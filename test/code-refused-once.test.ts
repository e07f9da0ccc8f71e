/**
 * Where making code is forbidden (a page's content security policy, which reports every attempt),
 * the runtime tries once (`codegen/codeAllowed.ts`): after a kept setup's copier is refused, another
 * pack's kept setup and a pack that has warmed do not try again, and play on the interpreter's way;
 * once the refusing `Function` is gone, code is made again.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame, type CompiledPack } from '../runtime/index.ts';
import { generatedFunctions, programOf } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { withFunction } from './helpers/functionSwap.ts';

/** More steps a call than generating is worth (25), so that the pack turns once warmed. */
const packYaml = (tag: string) => `kinds:
  spot:
    props:
      worth: number
    state:
      marks: list<number>
  game:
    state:
      n: number
entities:
  - spot: s1
    worth: 2
  - spot: s2
    worth: 3
rules: |
  action spin(s: spot) "Spin {s} ${tag}" {
    require sum(1..30, it) > 0 else "no"
    s.marks += [game.n]
    game.n += s.worth + sum(1..20, it % 3)
  }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: spin }
      }
    }
  }
`;

function played(pack: CompiledPack, seed: number): string {
  let st = newGame(pack, { players: 2, seed });
  while (!st.over) {
    const legal = legalChoices(st);
    const r = apply(st, legal[seed % legal.length]);
    if (!r.ok) throw new Error(r.reason);
    st = r.state;
  }
  return JSON.stringify(st.e);
}

describe('making code where it is forbidden is tried once', () => {
  it.skipIf(!!process.env.RULEBOOK_ENGINE)('one refusal for two packs’ kept setups and a pack warmed, the same games; code again once allowed', { timeout: 120_000 }, () => {
    const [first, second, warming] = ['one', 'two', 'three'].map((tag) => compileOk(packYaml(tag), { min: 2, max: 2 }));
    const reference = compileOk(packYaml('one'), { min: 2, max: 2 });
    const expected = Array.from({ length: 80 }, (_, i) => played(reference, i + 1));
    let refused = 0;
    withFunction(
      () => {
        refused++;
        throw new EvalError('code generation from strings disallowed for this context');
      },
      () => {
        // Past the copies made field by field (64): the first pack's copier is refused.
        expect(Array.from({ length: 80 }, (_, i) => played(first, i + 1))).toEqual(expected);
        expect(refused).toBe(1);
        for (let seed = 1; seed <= 80; seed++) played(second, seed);
        for (let seed = 1; !programOf(warming).warming?.next; seed++) {
          if (seed > 500) throw new Error('the pack never warmed');
          played(warming, seed);
        }
      },
    );
    expect(refused).toBe(1);
    expect(programOf(warming).warming!.next).toBe(programOf(warming, 'interpreter'));
    // Allowed again: the next pack's copier and warmed code are made.
    const later = compileOk(packYaml('four'), { min: 2, max: 2 });
    let made = 0;
    withFunction(
      () => void made++,
      () => {
        for (let seed = 1; !programOf(later).warming?.next; seed++) played(later, seed);
      },
    );
    expect(made).toBe(2);
    expect(generatedFunctions(programOf(later).warming!.next!)).toBeGreaterThan(0);
  });
});
