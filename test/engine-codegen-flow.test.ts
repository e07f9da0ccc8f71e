/**
 * The flow's statements given whole as generated code (runtime/codegen/emitFlow.ts): `for`,
 * `repeat`/`loop max`, `turn`, `offer` and an `if` around them, their blocks written inside them.
 * Checked against the interpreter on real packs, stepped and driven: the same state byte for byte at
 * every suspension (the frames the generated loops and blocks leave included), the same steps at
 * every statement the watcher sees, the same refusals named by the same lines.
 */
import { describe, expect, it } from 'vitest';
import type { CompiledPack } from '../compiler/index.ts';
import { stepsTaken } from '../runtime/budget.ts';
import { watchStatements } from '../runtime/engine.ts';
import { generatedSource, programOf } from '../runtime/link.ts';
import { apply, legalChoices, newGame, playDriven, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { picker } from './helpers/seededGame.ts';
import { packIn } from './helpers/packFolder.ts';

const ENGINES: EngineName[] = ['generated', 'interpreter'];

/**
 * Packs whose flows are loops of turns and offers: two small boards, three rounds of turns, loops
 * inside a turn that `break` on the game's count (with `choose`s deep in its actions), and the
 * default pack, whose turn calls a procedure (so only its inner loop of offers is generated).
 */
const DIRS = ['test/packs/tictactoe', 'test/packs/connect-four', 'test/packs/relay', 'test/packs/nested-choices', 'content/smallworld-wow'];

/** The most choices a stepped game is followed for (the default pack's games are long). */
const MOST_CHOICES = 40;

/**
 * A stepped game of seeded picks: the state after each choice (suspended at its next prompt, its
 * frames as the engine left them), and, for each choice, the steps spent at each statement the
 * watcher saw.
 */
function stepped(pack: CompiledPack, engine: EngineName, players: number, seed: number): string[] {
  const pick = picker(`flow ${seed}`);
  let st: GameState = newGame(pack, { players, seed, engine });
  const out = [JSON.stringify(st)];
  for (let k = 0; k < MOST_CHOICES && !st.over; k++) {
    const legal = legalChoices(st);
    if (!legal.length) break;
    const steps: number[] = [];
    const choice = legal[pick(legal.length)];
    const r = watchStatements(() => steps.push(stepsTaken()), () => apply(st, choice));
    out.push(JSON.stringify(steps), JSON.stringify(r.ok ? r.state : r));
    if (!r.ok) break;
    st = r.state;
  }
  return out;
}

describe('the flow given whole as generated code', () => {
  const packs = new Map(DIRS.map((dir) => [dir, packIn(dir)]));

  it('is generated: its offers, turns and the frames its loops leave', () => {
    for (const dir of DIRS) {
      const source = generatedSource(packs.get(dir)!);
      expect(source, dir).toContain('H.offerActions(');
      expect(source, dir).toContain('H.frameOf(');
    }
    expect(generatedSource(packs.get('test/packs/tictactoe')!)).toContain('H.startTurn(');
  });

  it('gives a block of such statements whole, an action’s body too, on the generated engine alone', () => {
    const pack = packs.get('test/packs/tictactoe')!;
    const [gen, ref] = ENGINES.map((engine) => programOf(pack, engine));
    expect(gen.actions.mark[0].body.whole).toBeTypeOf('function');
    expect(gen.flow!.body.whole).toBeTypeOf('function');
    expect(ref.actions.mark[0].body.whole).toBeUndefined();
    expect(ref.blocks.every((b) => b.whole === undefined)).toBe(true);
  });

  for (const dir of DIRS) {
    it(`${dir}: stepped, the same states and frames at every prompt, the same steps at every statement`, { timeout: 120_000 }, () => {
      const pack = packs.get(dir)!;
      for (const seed of [1, 2, 3]) {
        const [gen, ref] = ENGINES.map((engine) => stepped(pack, engine, pack.players.min, seed));
        const at = gen.findIndex((x, i) => x !== ref[i]);
        expect(at, `${dir} seed ${seed}: first difference`).toBe(-1);
        expect(gen.length).toBe(ref.length);
        // The games were played: choices made, and statements watched.
        expect(ref.length, dir).toBeGreaterThan(6);
        expect(ref[1], dir).not.toBe('[]');
      }
    });

    it(`${dir}: driven, the same game, and stopped anywhere, suspended with the same frames`, { timeout: 120_000 }, () => {
      const pack = packs.get(dir)!;
      let stopped = 0;
      for (const seed of [1, 2, 3]) {
        for (const cap of [1, 2, 5, 11, Infinity]) {
          for (const exact of [true, false]) {
            const [gen, ref] = ENGINES.map((engine) => {
              const st = newGame(pack, { players: pack.players.min, seed, engine });
              playoutChoices(st);
              const pick = picker(`drive ${seed}`);
              let made = 0;
              const end = playDriven(st, (n) => (made++ < cap ? pick(n) : -1), { exact });
              return { end, state: JSON.stringify(st) };
            });
            const where = `${dir} seed ${seed} cap ${cap} exact ${exact}`;
            expect(gen.end, where).toEqual(ref.end);
            expect(gen.state, where).toBe(ref.state);
            if (ref.end.ok && ref.end.end === 'stopped') stopped++;
          }
        }
      }
      // Games were stopped mid-flow, where the generated loops left their frames.
      expect(stopped).toBeGreaterThan(0);
    });
  }
});

const rules = `kinds:
  game:
    state:
      n: number
      k: number
rules: |
  action go "Go" { game.n += 1 }
  action negative "Negative" { game.k = -1 }
  action long "Long" { game.k = 1000000 }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: go, negative, long }
      }
      repeat game.k {
        game.n += 1
      }
      if game.n > 5 { finish }
    }
  }
`;

/** The line of the pack's `game.yaml` that holds `text`, the first that does. */
function lineOf(text: string): string {
  return `game.yaml:${rules.split('\n').findIndex((l) => l.includes(text)) + 1}`;
}

describe('a refusal in the generated flow', () => {
  const pack = compileOk(rules, { min: 2, max: 2 });
  const cases: Array<[action: string, reason: RegExp]> = [
    ['negative', /the number of rounds must be a whole number, 0 or more, not -1/],
    ['long', /step budget/],
  ];
  for (const [action, reason] of cases) {
    it(`is the interpreter's, named by the loop's line: ${action}`, () => {
      const answers = ENGINES.map((engine) => {
        // p1 goes, p2 takes `action`: the round's `repeat` then runs on the count it wrote.
        const st = newGame(pack, { players: 2, seed: 1, engine });
        const first = apply(st, legalChoices(st).find((c) => c.action === 'go')!);
        if (!first.ok) throw new Error(first.reason);
        const r = apply(first.state, legalChoices(first.state).find((c) => c.action === action)!);
        const steppedAnswer = r.ok ? null : { reason: r.reason, rule: r.rule, budget: r.budget };
        const game = newGame(pack, { players: 2, seed: 1, engine });
        playoutChoices(game);
        const names = legalChoices(game).map((c) => c.action);
        const end = playDriven(game, (_n, player) => names.indexOf(player === 'p1' ? 'go' : action));
        return { stepped: steppedAnswer, driven: end.ok ? null : { reason: end.reason, rule: end.rule, budget: end.budget } };
      });
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0].stepped).toMatchObject({ rule: lineOf('repeat game.k'), reason: expect.stringMatching(reason) });
      expect(answers[0].driven).toEqual(answers[0].stepped);
    });
  }

  it('ends the game by the finish of its if, on both engines alike', () => {
    const ends = ENGINES.map((engine) => {
      const st = newGame(pack, { players: 2, seed: 1, engine });
      playoutChoices(st);
      const names = legalChoices(st).map((c) => c.action);
      const end = playDriven(st, () => names.indexOf('go'));
      return { end, state: JSON.stringify(st) };
    });
    expect(ends[0]).toEqual(ends[1]);
    expect(ends[0].end).toMatchObject({ ok: true, end: 'over' });
  });
});

/**
 * A flow `depth` statements deep inside its `for p in players`: from the inside out, by turns a `for`
 * over the players, an `if` whose `else` breaks the loop around it, a `loop max 2` and a `turn`
 * (the statements inside it run with its player as `me`), around an offer and an `if` that
 * finishes the game at its thirtieth tick.
 */
function nestedFlow(depth: number): string {
  let body = 'offer p: tick\n      if game.n >= 30 { finish }';
  for (let i = 0; i < depth; i++) {
    if (i % 4 === 0) body = `for q${i} in players { ${body} }`;
    else if (i % 4 === 1) body = `if game.n < ${1000 + i} { ${body} } else { break }`;
    else if (i % 4 === 2) body = `loop max 2 { ${body} }`;
    else body = `turn p { ${body} }`;
  }
  return `kinds:
  game:
    state:
      n: number
rules: |
  action tick() "Tick" { game.n += 1 }
  flow {
    for p in players {
      ${body}
    }
  }
`;
}

describe('a flow nested deep', () => {
  it('is generated as source that grows with its depth, not with its square', () => {
    // Each level (a for, an if, a loop or a turn) is written in a bounded number of functions (emitFlow.ts's
    // MOST_WRITTEN), about 2,600 characters a level; written in each function around it, 80 levels
    // were 2.4 million.
    const PER_LEVEL = 4000;
    const bare = generatedSource(compileOk(nestedFlow(0), { min: 2, max: 2 })).length;
    for (const depth of [10, 20, 40, 80]) {
      const source = generatedSource(compileOk(nestedFlow(depth), { min: 2, max: 2 }));
      expect(source.length, `depth ${depth}`).toBeLessThan(bare + PER_LEVEL * depth);
    }
  });

  it('plays the same on both engines, stepped and driven, and suspended with the same frames', { timeout: 120_000 }, () => {
    const pack = compileOk(nestedFlow(40), { min: 2, max: 2 });
    for (const seed of [1, 2]) {
      const [gen, ref] = ENGINES.map((engine) => stepped(pack, engine, 2, seed));
      expect(gen).toEqual(ref);
      expect(ref.length).toBeGreaterThan(40);
    }
    let stopped = 0;
    for (const cap of [1, 7, 19, Infinity]) {
      const [gen, ref] = ENGINES.map((engine) => {
        const st = newGame(pack, { players: 2, seed: 1, engine });
        playoutChoices(st);
        const pick = picker(`nested ${cap}`);
        let made = 0;
        const end = playDriven(st, (n) => (made++ < cap ? pick(n) : -1));
        return { end, state: JSON.stringify(st) };
      });
      expect(gen, `cap ${cap}`).toEqual(ref);
      if (ref.end.ok && ref.end.end === 'stopped') stopped++;
      else expect(ref.end).toEqual({ ok: true, made: 30, end: 'over' });
    }
    expect(stopped).toBe(3);
  });
});
