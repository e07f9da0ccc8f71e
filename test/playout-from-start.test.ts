/**
 * A new game still its kept setup's copy, driven (`playDriven`), runs its flow again from its start
 * under the drive (`playoutFromStart`), which meets the first decision as any other: it is not listed
 * outside the drive, nor its frames resumed. Held here to stepping (`playoutChoices`, `playoutApply`)
 * and to the drive that begins at the first decision (the same game attached: no longer known to be
 * a copy), on every test pack whose flow writes nothing before its first decision, Wroth and Small
 * World, by both engines: the same state byte for byte, the same picks asked, the same steps counted
 * for each choice, and the same end, at the first decision and later, however the drive ends.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompiledPack } from '../compiler/index.ts';
import { STEP_BUDGET, stepsTaken } from '../runtime/budget.ts';
import { attach, flowStartOf, legalChoices, listingSteps, newGame, playDriven, playoutApply, playoutChoices, type DrivenEnd, type EngineName, type GameState } from '../runtime/index.ts';
import { withoutLog } from '../runtime/log.ts';
import { Refusal } from '../runtime/refusal.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

const engines: EngineName[] = ['interpreter', 'generated'];

/**
 * Seeded picks, `cap` of them at most (then -1), each asked with the number listed and the player;
 * `underDrive` says whether the first was asked at a prompt the drive met (one it writes no frame
 * for), not at one the game was suspended at.
 */
function picker(seed: number, st: () => GameState, cap = Infinity) {
  let rng = seedState(`from start ${seed}`);
  const asked: Array<[number, string]> = [];
  const seen = { underDrive: undefined as boolean | undefined };
  const pick = (n: number, player: string) => {
    seen.underDrive ??= st().prompt!.frames.length === 0;
    if (asked.length >= cap) return -1;
    asked.push([n, player]);
    const r = nextRandom(rng);
    rng = r.state;
    return Math.floor(r.value * n);
  };
  return { pick, asked, seen };
}

/** The same picks made by stepping, ended as `playDriven` ends. */
function stepped(st: GameState, pick: (n: number, player: string) => number, asked = false, stopBefore?: (player: string) => boolean): DrivenEnd {
  let made = 0;
  while (!st.over) {
    if (!st.prompt) return { ok: true, made, end: 'none' };
    if (stopBefore?.(st.prompt.player)) return { ok: true, made, end: 'stopped' };
    const n = playoutChoices(st, asked);
    if (!n) return { ok: true, made, end: 'none' };
    const k = pick(n, st.prompt!.player);
    if (k < 0) return { ok: true, made, end: 'stopped' };
    const r = playoutApply(st, k);
    if (!r.ok) return { ok: false, made, reason: r.reason, ...(r.rule !== undefined && { rule: r.rule }), ...(r.budget !== undefined && { budget: r.budget }) };
    made++;
  }
  return { ok: true, made, end: 'over' };
}

/** The steps each choice took so far when the next prompt is asked (a choice's making and the rules up to that prompt), as `stopBefore` sees them. */
function stepsSeen(): { steps: number[]; stopBefore: () => boolean } {
  const steps: number[] = [];
  return { steps, stopBefore: () => (steps.push(stepsTaken()), false) };
}

const json = (st: GameState) => JSON.stringify(st);
const framesCounted = (st: GameState) => JSON.stringify({ ...st, prompt: st.prompt && { ...st.prompt, frames: st.prompt.frames.length } });

const testPacks = readdirSync('test/packs').map((d) => join('test/packs', d));
/** The packs whose new games run their flow again: their setup draws nothing, asks nothing, and their flow writes nothing before its first decision. */
const FROM_START = new Set(['test/packs/climb', 'test/packs/connect-four', 'test/packs/lure', 'test/packs/nested-choices', 'test/packs/odd-values', 'test/packs/patience', 'test/packs/relay', 'test/packs/stall', 'test/packs/thief', 'test/packs/tictactoe', 'test/packs/vault']);

describe('a new game driven from its flow’s start is the game stepped', () => {
  for (const dir of [...testPacks, 'content/wroth', 'content/smallworld-wow']) {
    it(dir, { timeout: 240_000 }, () => {
      const pack = packIn(dir);
      const content = dir.startsWith('content/');
      const players = content ? [pack.players.min, Math.min(pack.players.max, 4)] : Array.from({ length: Math.min(pack.players.max, 5) - pack.players.min + 1 }, (_, i) => pack.players.min + i);
      const seeds = content ? [1, 2] : [1, 2, 3];
      let fromStart = 0;
      for (const engine of engines) {
        for (const n of players) {
          for (const seed of seeds) {
            // Stopped at the first decision (0), after the first choice, a few, and played out.
            for (const cap of [0, 1, 4, 600]) {
              const where = `${dir} ${engine} ${n}p seed ${seed} cap ${cap}`;
              const asked = seed % 2 === 0;
              const game = () => newGame(pack, { players: n, seed, engine });
              const a = game();
              const b = game();
              // Attached again, the same game is no longer known to be its setup's copy: its drive
              // begins at the first decision, listed outside it.
              const c = attach(pack, game(), engine);
              const starts = flowStartOf(b) !== undefined;
              if (dir === 'content/wroth') expect(starts, where).toBe(n === 4);
              else expect(starts, where).toBe(FROM_START.has(dir));
              expect(flowStartOf(c), where).toBeUndefined();
              const [pa, pb, pc] = [picker(seed, () => a, cap), picker(seed, () => b, cap), picker(seed, () => c, cap)];
              const [sb, sc] = [stepsSeen(), stepsSeen()];
              const endA = stepped(a, pa.pick, asked);
              const endB = playDriven(b, pb.pick, { asked, stopBefore: sb.stopBefore });
              const endC = playDriven(c, pc.pick, { asked, stopBefore: sc.stopBefore });
              expect(endB, where).toEqual(endA);
              expect(endC, where).toEqual(endA);
              expect(pb.asked, where).toEqual(pa.asked);
              expect(json(b), where).toBe(json(a));
              expect(json(c), where).toBe(json(a));
              // Each choice's making and the rules up to the next prompt, counted alike: the flow's
              // steps before the first decision are the new game's, in neither.
              expect(sb.steps, where).toEqual(sc.steps);
              expect(pb.seen.underDrive, where).toBe(starts);
              if (starts) fromStart++;
              // Not exact: suspended where it stopped, the same game but for its frames' unread
              // locals; at the first decision, the very frames its setup's flow wrote.
              const d = game();
              expect(playDriven(d, picker(seed, () => d, cap).pick, { asked, exact: false }), where).toEqual(endA);
              expect(cap === 0 ? json(d) : framesCounted(d), where).toBe(cap === 0 ? json(a) : framesCounted(a));
              if (endA.ok && endA.end === 'stopped') {
                // Stopped, it is a game like any other, its listing left as stepping leaves it.
                expect(legalChoices(b), where).toEqual(legalChoices(a));
                for (const s of [a, b, d]) playoutChoices(s);
                const [ra, rb, rd] = [playoutApply(a, 0), playoutApply(b, 0), playoutApply(d, 0)];
                expect(JSON.stringify(rb), where).toBe(JSON.stringify(ra));
                expect(rd.ok, where).toBe(ra.ok);
                if (ra.ok) {
                  const more = (s: GameState) => stepped(s, picker(seed + 100, () => s).pick);
                  expect(more(d), where).toEqual(more(a));
                  if (a.over) expect(json(d), where).toBe(json(a));
                }
              }
            }
          }
        }
      }
      expect(fromStart > 0).toBe(FROM_START.has(dir) || dir === 'content/wroth');
    });
  }
});

/** An offer of one action of one parameter at each turn; `game.n` from 2 refused. */
const picks = compileOk(`kinds:
  game:
    state:
      n: number
rules: |
  action pick(x: number in 0..2) "Pick {x}" {
    game.n += x
    require game.n < 2 else "too much"
  }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: pick }
      }
    }
  }
`);

/** `grab` from a pile of `left` (set by the setup, before the flow): nothing is open once it is empty. */
const pile = (left: number) =>
  compileOk(`kinds:
  game:
    state:
      left: number
rules: |
  setup {
    game.left = ${left}
  }
  action grab(x: number in 1..game.left) "Grab {x}" {
    game.left -= x
  }
  flow {
    loop max 10 {
      for p in players {
        turn p { offer p: grab }
      }
    }
  }
`);

describe('every way a drive from the flow’s start ends, at the first decision and later', () => {
  /** `a` stepped and `b` driven from its flow's start, by `play` each; what each threw. */
  function both(pack: CompiledPack, engine: EngineName, play: (st: GameState, driven: boolean) => unknown) {
    const a = newGame(pack, { players: 2, seed: 1, engine });
    const b = newGame(pack, { players: 2, seed: 1, engine });
    expect(flowStartOf(b)).toBeDefined();
    const run = (st: GameState, driven: boolean) => {
      try {
        return { end: play(st, driven) };
      } catch (e) {
        return { thrown: e };
      }
    };
    return { a, b, ra: run(a, false), rb: run(b, true) };
  }

  it('over, or stopped by the picker or `stopBefore`', () => {
    for (const engine of engines) {
      for (const stopAt of [0, 1, 3, 99]) {
        for (const by of ['pick', 'stopBefore'] as const) {
          const where = `${engine} at ${stopAt} by ${by}`;
          const { a, b, ra, rb } = both(picks, engine, (st, driven) => {
            let made = 0;
            const pick = () => (by === 'pick' && made >= stopAt ? -1 : (made++, 0));
            const stopBefore = () => by === 'stopBefore' && st.choices.length >= stopAt;
            return driven ? playDriven(st, pick, { stopBefore }) : stepped(st, pick, false, stopBefore);
          });
          expect(rb, where).toEqual(ra);
          expect(json(b), where).toBe(json(a));
          expect(rb.end, where).toMatchObject(stopAt === 99 ? { ok: true, end: 'over' } : { ok: true, made: stopAt, end: 'stopped' });
          if (stopAt === 0) {
            // Stopped before its first choice, it is still its setup's copy, driven from its start again.
            expect(flowStartOf(b), where).toBeDefined();
            const p = picker(5, () => b);
            expect(playDriven(b, p.pick), where).toEqual(stepped(a, picker(5, () => a).pick));
            expect(p.seen.underDrive, where).toBe(true);
            expect(json(b), where).toBe(json(a));
          } else if (!a.over) {
            // Its listing left as stepping leaves it (none where `stopBefore` stopped before listing).
            if (by === 'stopBefore') for (const s of [a, b]) playoutChoices(s);
            expect(JSON.stringify(playoutApply(b, 1)), where).toBe(JSON.stringify(playoutApply(a, 1)));
          }
        }
      }
    }
  });

  it('with nothing open', () => {
    for (const engine of engines) {
      // An empty pile at the first decision; a pile of 2 emptied by the first or second choice.
      for (const left of [0, 2]) {
        const { a, b, ra, rb } = both(pile(left), engine, (st, driven) => (driven ? playDriven(st, () => 0) : stepped(st, () => 0)));
        expect(rb, `${engine} ${left}`).toEqual(ra);
        expect(rb.end, `${engine} ${left}`).toMatchObject({ ok: true, made: left === 0 ? 0 : 2, end: 'none' });
        expect(json(b), `${engine} ${left}`).toBe(json(a));
        expect(playoutChoices(b)).toBe(0);
      }
    }
  });

  it('refused, at the first choice and later: the same reason and rule, the state as it was before that choice', () => {
    for (const engine of engines) {
      // A first choice of 2 is refused at once; 0, 1 then 1: the third.
      for (const order of [[2], [0, 1, 1]]) {
        const where = `${engine} ${order}`;
        const { a, b, ra, rb } = both(picks, engine, (st, driven) => {
          let i = 0;
          const pick = () => order[i++];
          return driven ? playDriven(st, pick) : stepped(st, pick);
        });
        expect(rb, where).toEqual(ra);
        expect(rb.end, where).toMatchObject({ ok: false, made: order.length - 1, reason: 'too much', rule: 'game.yaml:8' });
        expect(json(b), where).toBe(json(a));
        // Refused at its first choice, it is its setup's copy again.
        expect(flowStartOf(b) !== undefined, where).toBe(order.length === 1);
        expect(JSON.stringify(playoutApply(b, 0)), where).toBe(JSON.stringify(playoutApply(a, 0)));
      }
    }
  });

  it('by what the picker or `stopBefore` throws, a Refusal too: thrown with the game where stepping leaves it', () => {
    for (const engine of engines) {
      for (const error of [new Error('seen enough'), new Refusal('seen enough')]) {
        for (const by of ['pick', 'stopBefore'] as const) {
          // At the first decision (1) and at the fourth.
          for (const at of [1, 4]) {
            for (const exact of [true, false]) {
              const where = `${engine} ${error.constructor.name} by ${by} at ${at} ${exact ? 'exact' : 'not exact'}`;
              const { a, b, ra, rb } = both(picks, engine, (st, driven) => {
                let picked = 0;
                let befores = 0;
                const pick = () => {
                  if (by === 'pick' && ++picked === at) throw error;
                  return 0;
                };
                const stopBefore = () => {
                  if (by === 'stopBefore' && ++befores === at) throw error;
                  return false;
                };
                return driven ? playDriven(st, pick, { stopBefore, exact }) : stepped(st, pick, false, stopBefore);
              });
              expect(ra, where).toEqual({ thrown: error });
              expect(rb, where).toEqual({ thrown: error });
              expect(json(b), where).toBe(json(a));
              expect(b.choices.length, where).toBe(at - 1);
              // Listed where the picker threw (not where `stopBefore` did), as stepping leaves it.
              if (by === 'stopBefore') for (const s of [a, b]) playoutChoices(s);
              expect(JSON.stringify(playoutApply(b, 1)), where).toBe(JSON.stringify(playoutApply(a, 1)));
            }
          }
        }
      }
    }
  });

  it('run out of stack: played as stepping plays it, at every depth stepping reaches', () => {
    // After a first round of shallow offers (the flow takes a few steps to the first), the flow
    // reaches its offers `m` triggers deep, each `d` blocks deep, and the action runs as deep again
    // (test/playout-driven.test.ts): stepping meets each depth alone, a drive one on the other. The
    // deepest first: code not yet optimised takes the most stack.
    const deep = (m: number, d: number) => {
      const chain = (prefix: string, inner: string) => {
        let out = '';
        for (let i = 1; i <= m; i++) {
          const body = i < m ? `emit ${prefix}${i + 1}(p)` : inner;
          out += `event ${prefix}${i}(p: player)\non ${prefix}${i}(p) {\n${'if game.on {\n'.repeat(d)}${body}\n${'}\n'.repeat(d)}}\n`;
        }
        return out;
      };
      const rules = `${chain('f', 'offer p: act')}${chain('g', 'game.n += 1')}action go "Go" {\n  game.on = true\n}\naction act "Act" {\n  emit g1(me)\n}\nflow {\n  for p in players {\n    offer p: go\n  }\n  repeat 3 {\n    for p in players {\n      emit f1(p)\n    }\n  }\n}\n`;
      return compileOk(`kinds:\n  game:\n    state:\n      n: number\n      on: bool\nrules: |\n  ${rules.replace(/\n/g, '\n  ')}\n`);
    };
    let held = 0;
    for (const m of [40, 36, 32, 28, 24, 20]) {
      const pack = deep(m, 90);
      for (const engine of engines) {
        let b: GameState | undefined;
        let endB: DrivenEnd | Error;
        let starts = false;
        try {
          newGame(pack, { players: 2, seed: 1, engine });
          b = newGame(pack, { players: 2, seed: 1, engine });
          starts = flowStartOf(b) !== undefined;
          endB = playDriven(b, () => 0);
        } catch (e) {
          endB = e as Error;
        }
        let a: GameState;
        let endA: DrivenEnd;
        try {
          a = newGame(pack, { players: 2, seed: 1, engine });
          endA = stepped(a, () => 0);
        } catch (e) {
          if (e instanceof RangeError) continue;
          throw e;
        }
        held++;
        expect(starts, `${m} ${engine}`).toBe(true);
        expect(endB, `${m} ${engine}`).toEqual(endA);
        expect(JSON.stringify(b), `${m} ${engine}`).toBe(JSON.stringify(a));
      }
    }
    expect(held).toBeGreaterThan(0);
  });
});

describe('a first decision the flow reaches in a trigger, after turns it reads the current player in', () => {
  // The flow reads `current` before any turn (run again, it must see the one from before the
  // flow, not the first decision's), and its first decision is a `choose` in a trigger.
  const choosy = compileOk(
    `kinds:
  player:
    state:
      pts: number
  game:
    state:
      n: number
rules: |
  event poked(p: player)
  on poked(p) {
    choose y in [1, 2, 3] by p "poke" {
      p.pts += y
      if y == 3 { game.n += 1 }
    }
  }
  action add(x: number in 1..3) "Add {x}" {
    me.pts += x
    emit poked(me)
  }
  flow {
    if current == none {
      for p in players {
        turn p { }
      }
    }
    loop max 5 {
      for p in players {
        turn p {
          emit poked(p)
          offer p: add
        }
      }
      if game.n > 3 { break }
    }
  }
`,
    { min: 1, max: 5 },
  );

  it('plays as stepping and as the drive begun at it: state, picks, ends, steps, `stopBefore` asked as often; not exact, stopped where stepping stops', () => {
    for (const engine of engines) {
      for (let n = 1; n <= 3; n++) {
        for (const seed of [1, 2]) {
          for (const cap of [0, 1, 5, 600]) {
            for (const asked of [false, true]) {
              const where = `${engine} ${n}p seed ${seed} cap ${cap} asked ${asked}`;
              const game = () => newGame(choosy, { players: n, seed, engine });
              game();
              const [a, b, c, d] = [game(), game(), attach(choosy, game(), engine), game()];
              expect(flowStartOf(b), where).toBeDefined();
              const [pa, pb, pc] = [picker(seed, () => a, cap), picker(seed, () => b, cap), picker(seed, () => c, cap)];
              const [sa, sb, sc] = [stepsSeen(), stepsSeen(), stepsSeen()];
              const endA = stepped(a, pa.pick, asked, sa.stopBefore);
              expect(playDriven(b, pb.pick, { asked, stopBefore: sb.stopBefore }), where).toEqual(endA);
              expect(playDriven(c, pc.pick, { asked, stopBefore: sc.stopBefore }), where).toEqual(endA);
              expect(pb.asked, where).toEqual(pa.asked);
              expect(json(b), where).toBe(json(a));
              expect(sb.steps, where).toEqual(sc.steps);
              expect(sb.steps.length, where).toBe(sa.steps.length);
              expect(playDriven(d, picker(seed, () => d, cap).pick, { asked, exact: false }), where).toEqual(endA);
              expect(cap === 0 ? json(d) : framesCounted(d), where).toBe(cap === 0 ? json(a) : framesCounted(a));
            }
          }
        }
      }
    }
  });
});

describe('the steps a choice driven from the flow’s start counts', () => {
  it('its making and the rules up to the next prompt: refused past the budget at the same pick as stepping', () => {
    // Each pick spins `base + k` empty rounds: past some k, the first choice runs past its budget.
    // The flow takes a few steps before its first decision, which would tip the last pick to pass over.
    const base = STEP_BUDGET - 500;
    const pack = compileOk(`rules: |
  action spin(k: number in 0..1000) "Spin {k}" {
    repeat ${base} + k {
    }
  }
  flow {
    repeat 2 {
      for p in players {
        turn p { offer p: spin }
      }
    }
  }
`);
    for (const engine of engines) {
      const first = (k: number, driven: boolean) => {
        const st = newGame(pack, { players: 2, seed: 1, engine });
        if (driven) expect(flowStartOf(st)).toBeDefined();
        let i = 0;
        const pick = () => (i++ === 0 ? k : -1);
        const end = driven ? playDriven(st, pick) : stepped(st, pick);
        return { end, st: json(st) };
      };
      // The last pick stepping makes: those after it are refused by the step budget.
      let lo = 0;
      let hi = 1000;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (first(mid, false).end.ok) lo = mid;
        else hi = mid - 1;
      }
      expect(lo > 0 && lo < 1000, engine).toBe(true);
      for (const k of [lo, lo + 1]) {
        const [a, b] = [first(k, false), first(k, true)];
        expect(b, `${engine} ${k}`).toEqual(a);
        expect(b.end, `${engine} ${k}`).toMatchObject(k === lo ? { ok: true, made: 1, end: 'stopped' } : { ok: false, made: 0, budget: 'step' });
      }
    }
  });

  it('its listing, a budget of its own: thrown past it for the same games as stepping', () => {
    // The first decision lists `size + players` values, each checked against a list of 20: with
    // `size` chosen below, listing it takes the whole step budget for some number of players,
    // less for fewer, more for more.
    const packOf = (size: number) =>
      compileOk(
        `kinds:
  game:
    state:
      xs: list<number>
rules: |
  setup {
    game.xs = 1..20
  }
  action pick(k: number in 1..(${size} + count(players))) "Pick {k}" {
    require all(game.xs, it > 0) else "no"
  }
  flow {
    for p in players {
      turn p { offer p: pick }
    }
  }
`,
        { min: 1, max: 5 },
      );
    const steps = (pack: CompiledPack, players: number) => listingSteps(newGame(pack, { players, seed: 1 }), { oneCall: true, blind: true }).steps;
    const probe = packOf(50_000);
    const per = steps(probe, 2) - steps(probe, 1);
    // The size at which 3 players' listing takes the budget, give or take a value's steps.
    const size = 50_000 + Math.floor((STEP_BUDGET - steps(probe, 3)) / per);
    const pack = packOf(size);
    const outcomes = new Set<string>();
    for (const engine of engines) {
      for (let players = 1; players <= 5; players++) {
        const where = `${engine} ${players}p`;
        const listed = (driven: boolean) => {
          const st = newGame(pack, { players, seed: 1, engine });
          if (driven) expect(flowStartOf(st), where).toBeDefined();
          try {
            return { end: driven ? playDriven(st, () => 0) : stepped(st, () => 0), st: json(st) };
          } catch (e) {
            if (!(e instanceof Refusal)) throw e;
            return { thrown: `${e.message} (${e.budget})`, st: json(st) };
          }
        };
        const a = listed(false);
        expect(listed(true), where).toEqual(a);
        outcomes.add('thrown' in a ? 'thrown' : 'listed');
      }
    }
    // Past the budget for some numbers of players, within it for others.
    expect([...outcomes].sort()).toEqual(['listed', 'thrown']);
  });
});

describe('a first decision whose listing runs past the budget', () => {
  // 100,000 values, each checked against a list of 40: past the step budget of a listing.
  const big = compileOk(`kinds:
  game:
    state:
      xs: list<number>
rules: |
  setup {
    game.xs = 1..40
  }
  action pick(k: number in 1..100000) "Pick {k}" {
    require all(game.xs, it > 0) else "no"
  }
  flow {
    for p in players {
      turn p { offer p: pick }
    }
  }
`);

  it('throws as stepping throws it, `stopBefore` asked there once, the game left as stepping leaves it', () => {
    for (const engine of engines) {
      newGame(big, { players: 2, seed: 1, engine });
      const run = (driven: boolean) => {
        const st = newGame(big, { players: 2, seed: 1, engine });
        if (driven) expect(flowStartOf(st)).toBeDefined();
        let asked = 0;
        const stopBefore = () => (asked++, false);
        try {
          return { end: driven ? playDriven(st, () => 0, { stopBefore }) : stepped(st, () => 0, false, stopBefore), asked, st: json(st) };
        } catch (e) {
          if (!(e instanceof Refusal)) throw e;
          return { thrown: `${e.message} (${e.budget})`, asked, st: json(st) };
        }
      };
      const a = run(false);
      expect(a.thrown, engine).toBeDefined();
      expect(a.asked, engine).toBe(1);
      expect(run(true), engine).toEqual(a);
    }
  });
});

describe('a new game is driven from its flow’s start only while it is its kept setup’s copy', () => {
  const tictactoe = packIn('test/packs/tictactoe');
  const drivenAsStepped = (b: GameState, a: GameState, seed: number) => {
    const pb = picker(seed, () => b);
    expect(playDriven(b, pb.pick)).toEqual(stepped(a, picker(seed, () => a).pick));
    expect(json(b)).toBe(json(a));
    return pb.seen.underDrive;
  };

  it('not once a choice is made, or it is attached again (edited by hand), nor the game another is made in', () => {
    for (const engine of engines) {
      newGame(tictactoe, { players: 2, seed: 1, engine });
      const st = newGame(tictactoe, { players: 2, seed: 1, engine });
      expect(flowStartOf(st)).toBeDefined();
      playoutChoices(st);
      playoutApply(st, 0);
      expect(flowStartOf(st)).toBeUndefined();
      // Edited by hand and attached: its drive begins at the first decision, the edit played on.
      const edited = attach(tictactoe, newGame(tictactoe, { players: 2, seed: 2, engine }), engine);
      edited.e.a1.mark = 'p2';
      attach(tictactoe, edited, engine);
      const ref = attach(tictactoe, newGame(tictactoe, { players: 2, seed: 2, engine }), engine);
      ref.e.a1.mark = 'p2';
      attach(tictactoe, ref, engine);
      expect(drivenAsStepped(edited, ref, 2)).toBe(false);
      // Made in the objects of a game played: the new one is its setup's copy, the old one is not.
      const old = newGame(tictactoe, { players: 2, seed: 3, engine });
      playDriven(old, () => 0);
      const made = newGame(tictactoe, { players: 2, seed: 4, engine, into: old });
      expect(flowStartOf(old)).toBeUndefined();
      expect(flowStartOf(made)).toBeDefined();
      expect(drivenAsStepped(made, newGame(tictactoe, { players: 2, seed: 4, engine }), 4)).toBe(true);
    }
  });

  it('not where its turn or current player was edited by hand and not attached: the edit played on, as stepping plays it', () => {
    for (const engine of engines) {
      newGame(tictactoe, { players: 2, seed: 1, engine });
      for (const edit of [(st: GameState) => (st.turn = 40), (st: GameState) => (st.current = 'p2')]) {
        const [a, b] = [newGame(tictactoe, { players: 2, seed: 5, engine }), newGame(tictactoe, { players: 2, seed: 5, engine })];
        edit(a);
        edit(b);
        expect(flowStartOf(b)).toBeUndefined();
        expect(drivenAsStepped(b, a, 5)).toBe(false);
      }
    }
  });

  it('made with the log kept or not', () => {
    for (const engine of engines) {
      for (const log of [true, false]) {
        const game = () => (log ? newGame(tictactoe, { players: 2, seed: 7, engine }) : withoutLog(() => newGame(tictactoe, { players: 2, seed: 7, engine })));
        game();
        const [a, b] = [game(), game()];
        // Its turn's line, written by the flow before the first decision, is the setup's.
        expect(a.log.length).toBe(log ? 1 : 0);
        expect(drivenAsStepped(b, a, 7), `${engine} log ${log}`).toBe(true);
      }
    }
  });

  it('not where the flow writes a record, draws, or runs long before its first decision, nor where the setup asks', () => {
    const flowOf = (before: string, setup = '') =>
      compileOk(`kinds:
  game:
    state:
      n: number
      seen: bool
rules: |
  action add(x: number in 1..3) "Add {x}" {
    game.n += x
  }${setup}
  flow {
    ${before}
    loop max 3 {
      for p in players {
        turn p { offer p: add }
      }
    }
  }
`);
    // Whether its new games run the flow again.
    const cases: Array<[string, CompiledPack, boolean]> = [
      ['writes', flowOf('game.seen = true'), false],
      ['writes the value it had', flowOf('game.n = 0'), true],
      ['draws', flowOf('game.n = random(3)'), false],
      ['runs long', flowOf('repeat 100 {\n    }'), false],
      ['asks in the setup', flowOf('', `\n  setup {\n    for p in players {\n      choose x in [1, 2] by p "First" {\n        game.n += x\n      }\n    }\n  }`), false],
    ];
    for (const engine of engines) {
      for (const [what, pack, starts] of cases) {
        const where = `${engine}: ${what}`;
        newGame(pack, { players: 2, seed: 1, engine });
        const [a, b] = [newGame(pack, { players: 2, seed: 1, engine }), newGame(pack, { players: 2, seed: 1, engine })];
        expect(flowStartOf(b) !== undefined, where).toBe(starts);
        expect(drivenAsStepped(b, a, 1), where).toBe(starts);
      }
    }
  });
});
