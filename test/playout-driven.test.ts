/**
 * A driven playout (`playDriven`) against stepping (`playoutChoices`, `playoutApply`): the same
 * picks, in seeded games of every shipped and test pack but those stepped for an `anytime` action
 * (`STEPPED`), by both engines, make the same state byte for byte, over or stopped half-way
 * (prompt, frames and all), and a game stopped so goes on by `legalChoices` and `apply` as the
 * stepped one does. A choice refused while driven, by a `require`
 * or a budget, is refused at the same choice for the same reason, the state left as it was before it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompiledPack } from '../compiler/index.ts';
import { STEP_BUDGET } from '../runtime/budget.ts';
import { playByAgents, type AgentKind } from '../runtime/agents/index.ts';
import { apply, drivable, legalChoices, newGame, playDriven, playoutApply, playoutChoices, type DrivenEnd, type EngineName, type GameState } from '../runtime/index.ts';
import { Refusal } from '../runtime/refusal.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { metaOf } from '../runtime/stateMeta.ts';
import { budgetGame, compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

/** Seeded random picks, `cap` of them at most (then it stops), each asked with the number listed and the player. */
function picker(seed: number, cap = Infinity): { pick: (n: number, player: string) => number; asked: Array<[number, string]> } {
  let rng = seedState(`driven ${seed}`);
  const asked: Array<[number, string]> = [];
  return {
    asked,
    pick: (n, player) => {
      if (asked.length >= cap) return -1;
      asked.push([n, player]);
      const r = nextRandom(rng);
      rng = r.state;
      return Math.floor(r.value * n);
    },
  };
}

/** The same picks made by stepping, ended as `playDriven` ends, with what the picker and `stopBefore` were asked. */
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

const dirs = [...readdirSync('content').map((d) => join('content', d)), ...readdirSync('test/packs').map((d) => join('test/packs', d))];
const engines: EngineName[] = ['interpreter', 'generated'];
/** The packs a driven playout steps, each for an `anytime` action; every other pack is driven. */
const STEPPED = new Set(['content/wotlk']);

describe('a driven playout is the stepped one, byte for byte', () => {
  for (const dir of dirs) {
    it(dir, { timeout: 240_000 }, () => {
      const pack = packIn(dir);
      // Its games stepped, it would hold stepping to itself.
      expect(drivable(newGame(pack, { players: pack.players.min, seed: 1 })), `${dir} is ${STEPPED.has(dir) ? 'stepped' : 'driven'}`).toBe(!STEPPED.has(dir));
      const seeds = dir.startsWith('content/') ? [1, 2] : [1, 2, 3, 4, 5, 6];
      let stopped = 0;
      for (const engine of engines) {
        for (const players of new Set([pack.players.min, Math.min(pack.players.max, 4)])) {
          for (const seed of seeds) {
            // To the end (or 600 choices), and stopped after 1, 5 and 40 choices.
            for (const cap of [600, 1, 5, 40]) {
              const where = `${dir} ${engine} ${players}p seed ${seed} cap ${cap}`;
              const a = newGame(pack, { players, seed, engine });
              const b = newGame(pack, { players, seed, engine });
              const pa = picker(seed, cap);
              const pb = picker(seed, cap);
              const endA = stepped(a, pa.pick, seed % 2 === 0);
              const endB = playDriven(b, pb.pick, { asked: seed % 2 === 0 });
              expect(endB, where).toEqual(endA);
              expect(pb.asked, where).toEqual(pa.asked);
              expect(JSON.stringify(b), where).toBe(JSON.stringify(a));
              // Not exact: suspended where it stopped, the same game but for its frames' unread locals.
              const c = newGame(pack, { players, seed, engine });
              expect(playDriven(c, picker(seed, cap).pick, { asked: seed % 2 === 0, exact: false }), where).toEqual(endA);
              expect(JSON.stringify({ ...c, prompt: c.prompt && { ...c.prompt, frames: c.prompt.frames.length } }), where).toBe(JSON.stringify({ ...a, prompt: a.prompt && { ...a.prompt, frames: a.prompt.frames.length } }));
              if (endB.ok && endB.end === 'stopped') {
                stopped++;
                // Stopped, it is a game like any other: listed and played on by `apply`.
                const la = legalChoices(a);
                const lb = legalChoices(b);
                expect(lb, where).toEqual(la);
                if (la.length) expect(JSON.stringify(apply(b, lb[0]).state), where).toBe(JSON.stringify(apply(a, la[0]).state));
                // And by the driver's listing: the pick the picker stopped before may be made.
                expect(playoutChoices(b), where).toBe(playoutChoices(a));
                expect(playoutChoices(c), where).toBe(playoutChoices(a));
                const [ra, rb, rc] = [playoutApply(a, 0), playoutApply(b, 0), playoutApply(c, 0)];
                expect(JSON.stringify(rb), where).toBe(JSON.stringify(ra));
                // The one stopped where it stopped plays on to stepping's end.
                expect(rc.ok, where).toBe(ra.ok);
                if (ra.ok) {
                  expect(stepped(c, picker(seed + 100).pick), where).toEqual(stepped(a, picker(seed + 100).pick));
                  if (a.over) expect(JSON.stringify(c), where).toBe(JSON.stringify(a));
                }
              }
            }
          }
        }
      }
      expect(stopped).toBeGreaterThan(0);
    });
  }
});

/** An offer of one action of one parameter, listed by its values at each prompt a drive begins at or meets; `game.n` from 2 refused. */
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

describe('the prompt a drive begins at', () => {
  it('is left its listing, as stepping leaves it, where the drive stops there or its picker throws', () => {
    for (const engine of engines) {
      for (const end of ['stop', 'throw'] as const) {
        const st = newGame(picks, { players: 2, seed: 1, engine });
        const picker = () => {
          if (end === 'throw') throw new Error('no pick');
          return -1;
        };
        if (end === 'throw') expect(() => playDriven(st, picker)).toThrow('no pick');
        else expect(playDriven(st, picker)).toEqual({ ok: true, made: 0, end: 'stopped' });
        const ref = newGame(picks, { players: 2, seed: 1, engine });
        expect(playoutChoices(ref)).toBe(3);
        for (const s of [st, ref]) expect(playoutApply(s, 1).ok).toBe(true);
        expect(JSON.stringify(st), `${engine} ${end}`).toBe(JSON.stringify(ref));
      }
    }
  });

  it('refuses its choice as stepping does, and is left its listing', () => {
    for (const engine of engines) {
      // 0, 1 then 1: the third choice, driven, is refused; a first choice of 2 is refused at once.
      for (const order of [[0, 1, 1], [2]]) {
        const st = newGame(picks, { players: 2, seed: 1, engine });
        const ref = newGame(picks, { players: 2, seed: 1, engine });
        let i = 0;
        let j = 0;
        const end = playDriven(st, () => order[i++]);
        expect(end).toEqual(stepped(ref, () => order[j++]));
        expect(end).toMatchObject({ ok: false, made: order.length - 1, reason: 'too much' });
        expect(JSON.stringify(st), `${engine} ${order}`).toBe(JSON.stringify(ref));
        for (const s of [st, ref]) expect(playoutApply(s, 0).ok).toBe(true);
        expect(JSON.stringify(st), `${engine} ${order}`).toBe(JSON.stringify(ref));
      }
    }
  });
});

/** Ten rounds of turns, each offering `spin` (written by the test) and `rest`. */
const rounds = (spin: string) => compileOk(budgetGame(spin, 10));

describe('a choice refused while driven', () => {
  const spinAfter = (rule: string) => rounds(`action spin "Spin" {\n  game.n += 1\n  game.xs += [1]\n  ${rule}\n}`);

  it('by a require: refused at the same choice for the same reason and rule, the state as it was before it', () => {
    // The third spin of the game is refused: the choices before it, driven, are kept.
    const pack = spinAfter('require game.n < 3 else "too many spins"');
    for (const engine of engines) {
      const st = newGame(pack, { players: 2, seed: 1, engine });
      // `spin` is listed first: the picker always spins.
      const end = playDriven(st, () => 0);
      const ref = newGame(pack, { players: 2, seed: 1, engine });
      expect(end).toEqual(stepped(ref, () => 0));
      expect(end).toMatchObject({ ok: false, made: 2, reason: 'too many spins', rule: 'game.yaml:12' });
      expect(JSON.stringify(st)).toBe(JSON.stringify(ref));
      expect((st.e.game as Record<string, unknown>).n).toBe(2);
      // The state waits at the prompt of the refused choice, its listing made: the other pick is open.
      expect(playoutApply(st, 1).ok).toBe(true);
    }
  });

  it('by the step budget, past every loop the rules run: the same choice, the same reason, the state as it was', () => {
    // Each spin costs more than the last: the budget runs out at some spin of the game, mid-way.
    const pack = rounds(`action spin "Spin" {\n  game.n += 1\n  repeat game.n * ${Math.floor(STEP_BUDGET / 3)} { game.s = "x" }\n}`);
    for (const engine of engines) {
      const st = newGame(pack, { players: 2, seed: 1, engine });
      const end = playDriven(st, () => 0);
      const ref = newGame(pack, { players: 2, seed: 1, engine });
      const want = stepped(ref, () => 0);
      expect(want).toMatchObject({ ok: false, budget: 'step' });
      expect(end).toEqual(want);
      expect(JSON.stringify(st)).toBe(JSON.stringify(ref));
    }
  });

  it('in a listing past its budget: thrown where stepping throws it, the choices before it kept', () => {
    // The spins make the list `rest` ranges over longer, until listing it runs past the choices budget.
    const pack = compileOk(`kinds:
  game:
    state:
      n: number
rules: |
  action grow "Grow" {
    game.n += 40000
  }
  action pick(k: number in 1..game.n + 1) "Pick {k}" { }
  flow {
    loop max 100 {
      for p in players {
        turn p { offer p: grow, pick }
      }
    }
  }
`);
    for (const engine of engines) {
      const thrown = (st: GameState, play: (st: GameState) => unknown) => {
        try {
          play(st);
        } catch (e) {
          if (e instanceof Refusal) return e.message;
          throw e;
        }
        return null;
      };
      const a = newGame(pack, { players: 2, seed: 1, engine });
      const b = newGame(pack, { players: 2, seed: 1, engine });
      const ea = thrown(a, (st) => stepped(st, () => 0));
      const eb = thrown(b, (st) => playDriven(st, () => 0));
      expect(ea).toMatch(/budget/);
      expect(eb).toBe(ea);
      expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    }
  });
});

describe("a drive's undo", () => {
  it('is cut to the first note of each field in a long drive, and still puts it back whole', () => {
    // Each push writes a long list twice and a number; the 150th is refused, 149 driven before it.
    const pack = compileOk(`kinds:
  game:
    state:
      xs: list<number>
      n: number
rules: |
  setup {
    game.xs = 1..1000
  }
  action push "Push" {
    game.xs -= [game.n]
    game.xs += [game.n]
    game.n += 1
    require game.n < 150 else "enough"
  }
  flow {
    loop max 300 {
      for p in players {
        offer p: push
      }
    }
  }
`);
    for (const engine of engines) {
      const st = newGame(pack, { players: 1, seed: 1, engine });
      // The undo's notes and the list elements they hold, at each prompt of the drive.
      const notes: number[] = [];
      const elements: number[] = [];
      const end = playDriven(st, () => {
        const w = metaOf(st).written ?? [];
        notes.push(w.length / 3);
        let held = 0;
        for (let i = 2; i < w.length; i += 3) if (Array.isArray(w[i])) held += (w[i] as unknown[]).length;
        elements.push(held);
        return 0;
      });
      // Cut to the game's two fields, its list copied once, and kept so: not a note per write.
      expect(notes.length).toBe(150);
      expect(notes.at(-1)).toBe(2);
      expect(elements.at(-1)).toBe(1000);
      expect(Math.max(...notes)).toBeLessThan(149);
      expect(notes.slice(-100).every((n) => n === 2)).toBe(true);
      const ref = newGame(pack, { players: 1, seed: 1, engine });
      expect(end).toEqual(stepped(ref, () => 0));
      expect(end).toMatchObject({ ok: false, made: 149, reason: 'enough' });
      expect(JSON.stringify(st)).toBe(JSON.stringify(ref));
    }
  });
});

describe('what the picker or stopBefore throws mid-drive', () => {
  it('is thrown with the game where stepping leaves it, a Refusal too, exact or not', () => {
    const pack = packIn('test/packs/connect-four');
    const play = (run: (pick: (n: number, player: string) => number, stopBefore: (player: string) => boolean) => unknown, error: Error, by: 'pick' | 'stopBefore') => {
      const p = picker(3);
      let picks = 0;
      let befores = 0;
      try {
        run(
          (n, player) => {
            if (by === 'pick' && ++picks === 7) throw error;
            return p.pick(n, player);
          },
          () => {
            if (by === 'stopBefore' && ++befores === 7) throw error;
            return false;
          },
        );
      } catch (e) {
        return e;
      }
      return null;
    };
    for (const engine of engines) {
      for (const error of [new Error('seen enough'), new Refusal('seen enough')]) {
        for (const by of ['pick', 'stopBefore'] as const) {
          const where = `${engine} ${error.constructor.name} by ${by}`;
          const a = newGame(pack, { players: 2, seed: 3, engine });
          const b = newGame(pack, { players: 2, seed: 3, engine });
          const c = newGame(pack, { players: 2, seed: 3, engine });
          expect(play((pick, stopBefore) => stepped(a, pick, false, stopBefore), error, by), where).toBe(error);
          expect(play((pick, stopBefore) => playDriven(b, pick, { stopBefore }), error, by), where).toBe(error);
          expect(play((pick, stopBefore) => playDriven(c, pick, { stopBefore, exact: false }), error, by), where).toBe(error);
          expect(a.choices.length, where).toBe(6);
          expect(JSON.stringify(b), where).toBe(JSON.stringify(a));
          expect(JSON.stringify(c), where).toBe(JSON.stringify(a));
          // Listed where the picker threw (not where stopBefore did), as stepping leaves it.
          const [ra, rb] = [playoutApply(a, 0), playoutApply(b, 0)];
          expect(JSON.stringify(rb), where).toBe(JSON.stringify(ra));
        }
      }
    }
  });
});

describe("a playout game's observer", () => {
  const pack = packIn('test/packs/tictactoe');

  it('is shown the game as stepping makes it', () => {
    for (const seed of [1, 2, 3]) {
      const seen = new Map<number, string>();
      const shown = (st: GameState) => JSON.stringify({ e: st.e, prompt: st.prompt, over: st.over });
      playByAgents(pack, { players: 2, seed, agents: 'random', maxSteps: 500, inPlace: true, observe: (st) => void seen.set(st.choices.length, shown(st)) });
      let told = 0;
      playByAgents(pack, {
        players: 2,
        seed,
        agents: 'random',
        maxSteps: 500,
        playout: true,
        observe: (st) => {
          told++;
          expect(shown(st), `seed ${seed} at ${st.choices.length}`).toBe(seen.get(st.choices.length));
        },
      });
      expect(told).toBeGreaterThanOrEqual(2);
    }
  });

  it('with a seat that reads its choices, is told of every choice, the game as stepping makes it', () => {
    for (const seed of [1, 2, 3]) {
      const shown = (st: GameState) => JSON.stringify({ e: st.e, prompt: st.prompt, over: st.over });
      const seen = new Map<number, string>();
      const agents: AgentKind[] = ['greedy', 'random'];
      playByAgents(pack, { players: 2, seed, agents, maxSteps: 500, inPlace: true, observe: (st) => void seen.set(st.choices.length, shown(st)) });
      const told: number[] = [];
      playByAgents(pack, {
        players: 2,
        seed,
        agents,
        maxSteps: 500,
        playout: true,
        observe: (st) => {
          told.push(st.choices.length);
          expect(shown(st), `seed ${seed} at ${st.choices.length}`).toBe(seen.get(st.choices.length));
        },
      });
      expect(told).toEqual([...seen.keys()]);
    }
  });

  it('that throws stops the game where it was shown, a Refusal too', () => {
    for (const thrown of [new Error('seen enough'), new Refusal('an invariant ran past its budget')]) {
      let shown = -1;
      let kept: GameState | undefined;
      const play = () =>
        playByAgents(pack, {
          players: 2,
          seed: 3,
          agents: 'random',
          maxSteps: 500,
          playout: true,
          observe: (st) => {
            kept = st;
            if (st.choices.length >= 3) {
              shown = st.choices.length;
              throw thrown;
            }
          },
        });
      expect(play).toThrow(thrown);
      expect(shown).toBeGreaterThanOrEqual(3);
      expect(kept!.choices.length).toBe(shown);
    }
  });
});

/**
 * Rules nested deep at run time: the flow reaches its offer `m` triggers deep, each `d` blocks deep,
 * and the action runs as deep again. Stepping meets each depth alone (the choice resumes the frames
 * the offer wrote); a drive runs the action under the offer, one depth on the other.
 */
function deepRules(m: number, d: number): CompiledPack {
  const chain = (prefix: string, inner: string) => {
    let out = '';
    for (let i = 1; i <= m; i++) {
      const body = i < m ? `emit ${prefix}${i + 1}(p)` : inner;
      out += `event ${prefix}${i}(p: player)\non ${prefix}${i}(p) {\n${'if game.on {\n'.repeat(d)}${body}\n${'}\n'.repeat(d)}}\n`;
    }
    return out;
  };
  const rules = `${chain('f', 'offer p: act')}${chain('g', 'game.n += 1')}action act "Act" {\n  emit g1(me)\n}\nflow {\n  game.on = true\n  repeat 3 {\n    for p in players {\n      emit f1(p)\n    }\n  }\n}\n`;
  return compileOk(`kinds:\n  game:\n    state:\n      n: number\n      on: bool\nrules: |\n  ${rules.replace(/\n/g, '\n  ')}\n`);
}

describe('a drive deeper than the stack', () => {
  it('is played as stepping plays it, at every depth stepping reaches', () => {
    // Where stepping runs out of stack too there is nothing to hold the drive to. The deepest first,
    // each driven before it is stepped: code not yet optimised takes the most stack, and a drive
    // of cold code ran out of it where stepping did not (36 here, the interpreter, before drives
    // stepped a choice that ran out). The depths span both engines' stack, warm or not.
    let held = 0;
    for (const m of [40, 36, 32, 28, 24, 20]) {
      const pack = deepRules(m, 90);
      for (const engine of engines) {
        let b: GameState | undefined;
        let endB: DrivenEnd | Error;
        try {
          b = newGame(pack, { players: 2, seed: 1, engine });
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
        expect(endB, `${m} ${engine}`).toEqual(endA);
        expect(JSON.stringify(b), `${m} ${engine}`).toBe(JSON.stringify(a));
      }
    }
    expect(held).toBeGreaterThan(0);
  });
});
