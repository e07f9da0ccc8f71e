/**
 * A listing finds the values of an action of one parameter that keeps no answers by one call of its
 * `candidates` (`valuesOf`); an action that keeps its answers has each candidate asked (`singles`).
 * The two give the same choices for the same budget steps: at every step of seeded playouts of
 * every shipped and test pack, by either engine, a playout's listing and a labelled one, the same
 * listing made both ways is compared, steps included. And the choices budget refuses a domain too
 * long on the one-call path as on the other.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompiledPack } from '../compiler/index.ts';
import { MAX_COMBINATIONS } from '../runtime/budget.ts';
import { listingSteps, newGame, playoutApply, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { programOf } from '../runtime/link.ts';
import { Refusal } from '../runtime/refusal.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { budgetGame, compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

/** A listing's choices and steps, or its refusal's reason. */
function listing(st: GameState, oneCall: boolean, blind: boolean): ReturnType<typeof listingSteps> | string {
  try {
    return listingSteps(st, { oneCall, blind });
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return e.message;
  }
}

/** Whether an action of the pack has a parameter, whose domain a listing counts as steps. */
function valued(pack: CompiledPack): boolean {
  return Object.values(programOf(pack, 'interpreter').actions).some((list) => list.some((a) => a.params.length > 0));
}

const dirs = [...readdirSync('content').map((d) => join('content', d)), ...readdirSync('test/packs').map((d) => join('test/packs', d))];
const engines: EngineName[] = ['generated', 'interpreter'];

describe('a listing by one call of candidates gives the choices and takes the budget steps of one asking each candidate', () => {
  for (const dir of dirs) {
    it(dir, { timeout: 240_000 }, () => {
      const pack = packIn(dir);
      let steps = 0;
      let listed = 0;
      for (const engine of engines) {
        for (const players of new Set([pack.players.min, Math.min(pack.players.max, 4)])) {
          for (const seed of dir.startsWith('content/') ? [1, 2] : [1, 2, 3, 4]) {
            const st = newGame(pack, { players, seed, engine });
            let rng = seedState(`listing ${seed}`);
            for (let step = 0; step < 60 && !st.over; step++) {
              for (const blind of [true, false]) {
                const where = `${dir} ${engine} ${players}p seed ${seed} step ${step}${blind ? ' playout' : ''}`;
                // The first listing of a state finds the cards' holders, kept with it, which later listings read.
                listing(st, false, blind);
                const byCandidates = listing(st, true, blind);
                expect(byCandidates, where).toEqual(listing(st, false, blind));
                if (typeof byCandidates !== 'string') {
                  steps += byCandidates.steps;
                  listed += byCandidates.listed.length;
                }
              }
              const n = playoutChoices(st);
              if (!n) break;
              const r = nextRandom(rng);
              rng = r.state;
              const res = playoutApply(st, Math.floor(r.value * n));
              expect(res.ok, `${dir} ${engine} seed ${seed} step ${step}: ${res.ok ? '' : res.reason}`).toBe(true);
            }
          }
        }
      }
      expect(listed).toBeGreaterThan(0);
      if (valued(pack)) expect(steps).toBeGreaterThan(0);
    });
  }
});

describe('an action of one parameter offered last', () => {
  // Offered last, it keeps no answers for another action: a listing finds its values by `candidates`.
  const last = (rules: string) => budgetGame(rules).replace('offer p: spin, rest', 'offer p: rest, spin');

  it('is listed by one call of its candidates, for the steps and choices of asking each candidate', () => {
    const pack = compileOk(last(`action spin(n: number in 1..300) "Spin {n}" {\n  let k = n * 2\n  require k % 3 == 0 else "not a third"\n  game.n = n\n}`));
    for (const engine of engines) {
      const [spin] = programOf(pack, engine).actions.spin;
      const candidates = spin.candidates;
      let calls = 0;
      spin.candidates = (c, domain, out) => {
        calls++;
        candidates(c, domain, out);
      };
      try {
        const st = newGame(pack, { players: 1, seed: 1, engine });
        for (const blind of [true, false]) {
          const one = listingSteps(st, { oneCall: true, blind });
          expect(calls, engine).toBe(1);
          const each = listingSteps(st, { oneCall: false, blind });
          expect(calls, engine).toBe(1);
          calls = 0;
          expect(one, engine).toEqual(each);
          // `rest`, then spin's 100 values of n that pass, of its 300.
          expect(one.listed.map((c) => c.args[0] ?? c.action), engine).toEqual(['rest', ...Array.from({ length: 100 }, (_, i) => 3 * (i + 1))]);
          // Its checks visit no list, so the steps are the domain's 300 values, counted as listing asked them.
          expect(one.steps, engine).toBe(300);
        }
      } finally {
        spin.candidates = candidates;
      }
    }
  });

  it(`is refused past ${MAX_COMBINATIONS.toLocaleString('en')} values (the choices budget), by either path`, { timeout: 120_000 }, () => {
    const members = Array.from({ length: MAX_COMBINATIONS + 1 }, (_, i) => `v${i}`).join(', ');
    const text = `enums:\n  big: [${members}]\n${last(`action spin(x: big) "Spin {x}" {\n  game.s = "{x}"\n}`)}`;
    const pack = compileOk(text);
    const line = text.split('\n').findIndex((l) => l.includes('action spin')) + 1;
    for (const engine of engines) {
      for (const oneCall of [true, false]) {
        const st = newGame(pack, { players: 1, seed: 1, engine });
        const before = JSON.stringify(st);
        let error: unknown;
        try {
          listingSteps(st, { oneCall, blind: true });
        } catch (e) {
          error = e;
        }
        expect(error, `${engine} ${oneCall}`).toBeInstanceOf(Refusal);
        expect((error as Refusal).message).toBe(`the parameters of spin make more than ${MAX_COMBINATIONS.toLocaleString('en')} combinations (the choices budget)`);
        expect((error as Refusal).budget).toBe('choices');
        expect((error as Refusal).where).toBe(`game.yaml:${line}`);
        expect(JSON.stringify(st)).toBe(before);
      }
    }
  });
});
