/**
 * A driven offer of one action of one parameter is listed with what its offer found once
 * (`offerFound`): the parameter's domain when written out, the very list its domain expression gives
 * at every listing, and whether its leading checks hold with no parameter bound, running nothing.
 * At every such offer of seeded games of every test pack and Small World, by both engines, the
 * driven listing (`drivenListing`) gives the values `listingSteps` lists, and takes its steps
 * exactly: it passes under a budget of those steps, and is refused under one fewer. Where the domain is written
 * out, its expression is not asked at a driven listing.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drivenListing, drivenListingOf, listingSteps, newGame, playoutApply, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { withStepBudget } from '../runtime/budget.ts';
import type { ActionCode, ExprFn } from '../runtime/program.ts';
import { Refusal } from '../runtime/refusal.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { programFor } from '../runtime/stateProgram.ts';
import { packIn } from './helpers/packFolder.ts';

const engines: EngineName[] = ['interpreter', 'generated'];

/** Whether the driven listing of `state`'s prompt passes under a budget of `steps`, or is refused for steps. */
function listsWithin(state: GameState, steps: number): boolean {
  try {
    withStepBudget(() => drivenListing(state, false, drivenListingOf(), programFor(state)), steps);
    return true;
  } catch (e) {
    if (e instanceof Refusal && e.budget === 'step') return false;
    throw e;
  }
}

/** The one-parameter actions of `state`'s program whose domain is written out, each counting the calls of its domain expression while `run` runs. */
function domainCalls<T>(state: GameState, run: (calls: Map<ActionCode, number>) => T): T {
  const calls = new Map<ActionCode, number>();
  const restore: Array<() => void> = [];
  for (const list of Object.values(programFor(state).actions)) {
    for (const a of list) {
      const d = a.lowered.domain;
      if (a.params.length !== 1 || d === undefined || d.op !== 'const' || !Array.isArray(d.value)) continue;
      const param = a.params[0];
      const own: ExprFn = param.domain;
      calls.set(a, 0);
      param.domain = (c) => {
        calls.set(a, calls.get(a)! + 1);
        return own(c);
      };
      restore.push(() => (param.domain = own));
    }
  }
  try {
    return run(calls);
  } finally {
    for (const r of restore) r();
  }
}

const testPacks = readdirSync('test/packs').map((d) => join('test/packs', d));

describe('a driven offer listed with what its offer found once', () => {
  for (const dir of [...testPacks, 'content/smallworld-wow']) {
    it(dir, { timeout: 240_000 }, () => {
      const pack = packIn(dir);
      const players = [pack.players.min, Math.min(pack.players.max, 4)];
      let offered = 0;
      for (const engine of engines) {
        for (const n of players) {
          for (const seed of [1, 2]) {
            const state = newGame(pack, { players: n, seed, engine });
            let rng = seedState(`offer listing ${seed}`);
            for (let move = 0; move < 80 && !state.over && state.prompt; move++) {
              const where = `${dir} ${engine} ${n}p seed ${seed} move ${move}`;
              const { listed, steps } = listingSteps(state, { oneCall: true, blind: true });
              const into = drivenListingOf();
              const asked = domainCalls(state, (calls) => {
                withStepBudget(() => drivenListing(state, false, into, programFor(state)));
                return calls;
              });
              if (into.a !== null) {
                expect(into.values, where).toEqual(listed.map((l) => l.args[0]));
                expect(listed.every((l) => l.action === into.a!.name && l.player === into.player), where).toBe(true);
                if (asked.has(into.a)) {
                  offered++;
                  expect(asked.get(into.a), where).toBe(0);
                }
                expect(listsWithin(state, steps), where).toBe(true);
                if (steps > 0) expect(listsWithin(state, steps - 1), where).toBe(false);
              }
              const k = playoutChoices(state);
              if (k === 0) break;
              const r = nextRandom(rng);
              rng = r.state;
              expect(playoutApply(state, Math.floor(r.value * k)).ok, where).toBe(true);
            }
          }
        }
      }
      // The packs of one board whose one action is over a written-out list of cells.
      if (dir === 'test/packs/tictactoe' || dir === 'test/packs/connect-four') expect(offered).toBeGreaterThan(0);
    });
  }
});
