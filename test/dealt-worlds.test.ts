/**
 * A search's worlds (`dealer` in runtime/agents/determinise.ts) start with what their state knows
 * of its cards' holders, made stale where a dealt hidden field changes it, as a rule's write of that
 * field makes it: the games played on from a dealt world must be those played from the same world
 * with nothing kept (loaded from JSON), on both engines, whichever hidden fields the roles read
 * (a scalar traded between entities, a key field naming the card, a list dealt from a pool). What
 * a world finds of the holders is its own: the real state a search dealt from plays on as its own
 * record replayed.
 */
import { describe, expect, it } from 'vitest';
import { dealer } from '../runtime/agents/determinise.ts';
import { playByAgents } from '../runtime/agents/index.ts';
import { keptKinds } from '../runtime/holders.ts';
import { apply, attach, cardHolders, legalChoices, newGame, viewFor, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { programFor } from '../runtime/stateProgram.ts';
import { keyedPack } from './helpers/keyedPack.ts';

const pack = keyedPack(['owner', 'treasure', 'hand']);

/** The same state with nothing kept about its cards' holders. */
function fresh(st: GameState, engine: EngineName, of: CompiledPack = pack): GameState {
  return attach(of, JSON.parse(JSON.stringify(st)) as GameState, engine);
}

function random(seed: number): () => number {
  let n = seed;
  return () => (n = (n * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** `st` and `other` played on by the same picks to the end, the same states at every choice, holders asked before each. */
function playedAlike(st: GameState, other: GameState, engine: EngineName, seed: number): number {
  let pick = seed;
  let checked = 0;
  while (!st.over) {
    expect(cardHolders(st)).toEqual(cardHolders(other));
    const legal = legalChoices(st, { labels: false });
    expect(legal).toEqual(legalChoices(other, { labels: false }));
    pick = (pick * 1103515245 + 12345) % 2147483648;
    const r = apply(st, legal[pick % legal.length].id);
    const s = apply(other, legal[pick % legal.length].id);
    if (!r.ok || !s.ok) throw new Error('a listed choice was refused');
    st = r.state;
    other = fresh(s.state, engine);
    expect(JSON.stringify(st)).toBe(JSON.stringify(other));
    checked++;
  }
  return checked;
}

describe('a dealt world keeps what its state knows of the holders, but what the deal changes', () => {
  it('the roles read every kind of hidden field a deal writes', () => {
    const { roleFields } = keptKinds(pack);
    expect(roleFields.get('owner')?.get('spot')).toBeDefined();
    expect(roleFields.get('treasure')?.get('spot')).toBeDefined();
    expect(roleFields.get('hand')?.get('player')).toBeDefined();
  });

  for (const engine of ['interpreter', 'generated'] as const) {
    it(`plays the games a world with nothing kept plays (${engine})`, () => {
      let worlds = 0;
      let moved = 0;
      let checked = 0;
      for (let seed = 1; seed <= 8; seed++) {
        let st = newGame(pack, { players: 3, seed, engine });
        for (let step = 0; step < 2 * seed + 3; step++) {
          const legal = legalChoices(st, { labels: false });
          const r = apply(st, legal[(seed * 7 + step * 5) % legal.length].id);
          if (!r.ok) throw new Error(r.reason);
          st = r.state;
        }
        // Asked first, so that the state knows its holders when its worlds are dealt.
        const known = cardHolders(st);
        const before = JSON.stringify(st);
        const deal = dealer(pack, st, ['p1']);
        const rnd = random(seed);
        for (let k = 0; k < 4; k++) {
          const world = deal(rnd);
          worlds++;
          // On the engine its state plays on.
          expect(programFor(world)).toBe(programFor(st));
          if (JSON.stringify(cardHolders(fresh(world, engine))) !== JSON.stringify(known)) moved++;
          expect(viewFor(world, 'p1').e).toEqual(viewFor(st, 'p1').e);
          checked += playedAlike(world, fresh(world, engine), engine, seed * 10 + k);
        }
        expect(JSON.stringify(st)).toBe(before);
        expect(cardHolders(st)).toEqual(known);
      }
      expect(worlds).toBe(32);
      // The deals moved cards to other holders, which a world keeping its state's holders whole would miss.
      expect(moved).toBeGreaterThan(8);
      expect(checked).toBeGreaterThan(100);
    });
  }

  for (const engine of ['interpreter', 'generated'] as const) {
    it(`a game a searching seat played is its own record replayed by apply, byte for byte (${engine})`, () => {
      // Only the owners hidden, and no charm: a dealt treasure, or an owner read of a charm's
      // neighbour, would make a whole kind stale in each world, and no world's deal of an owner,
      // keyed to a token, would meet holders it shares with the real state.
      const owners = keyedPack(['owner'], false);
      let replayed = 0;
      for (let seed = 1; seed <= 6; seed++) {
        const start = newGame(owners, { players: 3, seed, engine });
        const game = playByAgents(owners, { players: 3, seed, agents: ['mcts:30', 'random', 'random'], maxSteps: 100, start });
        let st = fresh(start, engine, owners);
        for (const id of game.state.choices) {
          const r = apply(st, id);
          if (!r.ok) throw new Error(`seed ${seed}: ${id} refused on replay: ${r.reason}`);
          st = r.state;
        }
        expect(st.e, `seed ${seed}`).toEqual(game.state.e);
        expect(JSON.stringify(st), `seed ${seed}`).toBe(JSON.stringify(game.state));
        replayed += game.state.choices.length;
      }
      expect(replayed).toBe(6 * 24);
    });
  }
});
