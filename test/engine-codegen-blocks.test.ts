/**
 * An `if` given whole as generated code (`generatesWhole`, `Unit.block` in runtime/codegen/emit.ts):
 * its blocks run as `runBlock` runs them, a step and the watcher before each statement, `break` and
 * `finish` leaving the blocks around them, and a refusal named by the innermost statement running.
 * Checked against the interpreter, statement by statement.
 */
import { describe, expect, it } from 'vitest';
import { stepsTaken } from '../runtime/budget.ts';
import { watchStatements } from '../runtime/engine.ts';
import { generatedSource } from '../runtime/link.ts';
import { apply, legalChoices, newGame, playDriven, playoutChoices, type CompiledPack, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';

const rules = `kinds:
  game:
    state:
      n: number
rules: |
  action nest "Nest" {
    game.n += 1
    if game.n >= 1 {
      let k = game.n * 2
      if k > 100 {
        game.n = 0
      } else {
        game.n += k
      }
      require game.n < 60 else "the count is too high"
    }
  }
  action stop "Stop" {
    for i in 1..10 {
      if i == 3 {
        game.n += 100
        break
      }
      game.n += i
    }
  }
  action huge "Huge" {
    if game.n >= 0 {
      if game.n >= 0 {
        game.n = game.n + count(1..1000000000)
      }
    }
  }
  action tight "Tight" {
    game.n += 1
    game.n += 1
    repeat 1000000 {
      if game.n > -1 {
        game.n += 1
      }
    }
  }
  action loose "Loose" {
    repeat 999999 {
      if game.n > -2 {
        game.n += 1
      }
    }
  }
  action rest "Rest" { }
  flow {
    loop max 6 {
      for p in players {
        turn p { offer p: nest, stop, huge, tight, loose, rest }
      }
      if game.n > 300 {
        finish
      }
    }
  }
`;

/** The line of the pack's `game.yaml` that holds `text`, the first that does. */
function lineOf(text: string): string {
  return `game.yaml:${rules.split('\n').findIndex((l) => l.includes(text)) + 1}`;
}

type Engine = 'generated' | 'interpreter';
const ENGINES: Engine[] = ['generated', 'interpreter'];

/** What the watcher sees before each statement while `run` runs: the steps spent so far and the count. */
function watched<T>(run: () => T): { result: T; seen: Array<[number, unknown]> } {
  const seen: Array<[number, unknown]> = [];
  const result = watchStatements((st: GameState) => seen.push([stepsTaken(), st.e.game?.n]), run);
  return { result, seen };
}

/** `actions` taken in turn by the players from a new game, each choice's result and what the watcher saw. */
function trail(pack: CompiledPack, engine: Engine, actions: string[]): unknown[] {
  let st = newGame(pack, { players: 2, seed: 1, engine });
  const out: unknown[] = [];
  for (const action of actions) {
    const choice = legalChoices(st).find((c) => c.action === action);
    if (!choice) {
      out.push({ over: st.over, missing: action });
      break;
    }
    const { result, seen } = watched(() => apply(st, choice.id));
    st = result.state;
    out.push({ result: result.ok ? 'ok' : { reason: result.reason, rule: result.rule }, seen, n: st.e.game.n, over: st.over });
  }
  return out;
}

describe('an if given whole as generated code', () => {
  const pack = compileOk(rules, { min: 2, max: 2 });

  it('is generated, blocks and all', () => {
    const source = generatedSource(pack);
    expect(source).toContain('H.placed(');
    expect(source).toContain('return 1;');
    expect(source).toContain('return 3;');
  });

  it('runs its blocks, break and finish as the interpreter does, the watcher seeing each statement at the same step', () => {
    const plays = [
      ['nest', 'stop', 'nest', 'nest', 'stop', 'nest'],
      ['stop', 'stop', 'stop', 'stop', 'nest'],
      ['nest', 'nest', 'nest', 'nest', 'nest', 'nest', 'nest', 'nest', 'nest', 'nest', 'nest', 'nest'],
    ];
    for (const play of plays) {
      const [gen, ref] = ENGINES.map((engine) => trail(pack, engine, play));
      expect(gen).toEqual(ref);
      // Each choice's statements were watched: the trail is not empty for either engine.
      expect((ref[0] as { seen: unknown[] }).seen.length).toBeGreaterThan(2);
    }
    // `finish` in the flow's `if` ended the game that went past 300.
    const over = trail(pack, 'generated', plays[1]);
    expect(over[over.length - 1]).toMatchObject({ over: true });
    // `break` left the loop at its third round: 1 + 2 + 100.
    expect(trail(pack, 'generated', ['stop'])[0]).toMatchObject({ result: 'ok', n: 103 });
  });

  it('refuses with the reason of a require inside its blocks', () => {
    // 0 → 1 + 2 = 3 → 4 + 8 = 12 → 13 + 26 = 39 → 40 + 80 = 120, refused.
    const play = ['nest', 'nest', 'nest', 'nest'];
    const [gen, ref] = ENGINES.map((engine) => trail(pack, engine, play));
    expect(gen).toEqual(ref);
    expect(gen[gen.length - 1]).toMatchObject({ result: { reason: 'the count is too high' } });
  });

  const refusals: Array<[action: string, at: string, reason: RegExp]> = [
    // A range too long in a statement of an `if` in an `if`: that statement, the innermost.
    ['huge', lineOf('count(1..1000000000)'), /range budget/],
    // The step budget ended by the step of the `if`'s own block, before its statement began: the `if`.
    ['tight', lineOf('if game.n > -1'), /step budget/],
    // The step budget ended by the loop's block, before the `if` began: the loop.
    ['loose', lineOf('repeat 999999'), /step budget/],
  ];
  for (const engine of ENGINES) {
    for (const [action, at, reason] of refusals) {
      it(`names the statement running at a refusal: ${action}, on the ${engine}, at ${at}`, () => {
        const st = newGame(pack, { players: 2, seed: 1, engine });
        const r = apply(st, legalChoices(st).find((c) => c.action === action)!.id);
        const stepped = r.ok ? null : { reason: r.reason, rule: r.rule, budget: r.budget };
        expect(stepped).toMatchObject({ rule: at, reason: expect.stringMatching(reason) });
        // Driven: p1 rests, then p2 takes `action` at the prompt the drive lists.
        const game = newGame(pack, { players: 2, seed: 1, engine });
        playoutChoices(game);
        const names = legalChoices(game).map((c) => c.action);
        const end = playDriven(game, (_n, player) => (player === 'p1' ? names.indexOf('rest') : names.indexOf(action)));
        expect(end.ok ? null : { reason: end.reason, rule: end.rule, budget: end.budget }).toEqual(stepped);
      });
    }
  }
});
