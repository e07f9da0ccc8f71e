/**
 * A generated loop walked along a row of entity numbers (a list of an element walked in its turn:
 * `c.lines`, then each line's `it.cells`) whose body reads its elements only by their numbers goes
 * along that row, as long as the list, without taking the list itself each round of the loop around
 * it (emit.ts `Unit.loop`, `Walk.numbers`); a body that reads an element itself (compares it, say)
 * still takes the list. Either way a game is the same, choice by choice, on either engine.
 */
import { describe, expect, it } from 'vitest';
import type { CompiledPack } from '../compiler/index.ts';
import { newGame, playoutApply, playoutChoices, type EngineName } from '../runtime/index.ts';
import { generatedSource } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

/** A loop over a row of numbers, each its record read by number, the row's length its bound. */
const BARE = /\bfor \((v\d+) = 0; \1 < (v\d+)\.length; \1\+\+\) \{v\d+ = \(\(v\d+ = R\[\2\[\1\]\]\)/;

/** Playouts of `pack` on both engines, the same seeds and picks: the states must be the same at every choice. */
function sameOnBoth(pack: CompiledPack, players: number): void {
  const engines: EngineName[] = ['generated', 'interpreter'];
  for (const seed of [1, 2, 3, 4]) {
    const [gen, ref] = engines.map((engine) => newGame(pack, { players, seed, engine }));
    for (let i = 0; i < 60 && !gen.over; i++) {
      const [n, m] = [playoutChoices(gen), playoutChoices(ref)];
      expect(n).toBe(m);
      if (n === 0) break;
      const k = (i * 7 + seed) % n;
      expect(playoutApply(gen, k).ok).toBe(true);
      expect(playoutApply(ref, k).ok).toBe(true);
      expect(JSON.stringify(gen), `seed ${seed} choice ${i}`).toBe(JSON.stringify(ref));
    }
  }
}

describe('a walk read only by its elements numbers', () => {
  for (const dir of ['test/packs/tictactoe', 'test/packs/connect-four']) {
    it(`${dir}: goes along its row of numbers, the same game on both engines`, () => {
      const pack = packIn(dir);
      expect(generatedSource(pack)).toMatch(BARE);
      sameOnBoth(pack, 2);
    });
  }

  it('takes its list where its body reads an element itself', () => {
    const pack = compileOk(
      `kinds:
  spot:
    props:
      rows: list<row>
    state:
      owner: player?
  row:
    props:
      spots: list<spot>
  game:
    state:
      done: bool
entities:
  - row: r1
    spots: [s1, s2, s3]
  - row: r2
    spots: [s3, s4]
  - spot: s1
    rows: [r1]
  - spot: s2
    rows: [r1]
  - spot: s3
    rows: [r1, r2]
  - spot: s4
    rows: [r2]
rules: |
  action claim(s: spot) "Claim {s}" {
    require s.owner == none else "{s} is taken"
    s.owner = me
    if any(s.rows, all(it.spots, it.owner == me or it == s4)) {
      game.done = true
    }
  }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: claim }
        if game.done {
          finish
        }
      }
    }
  }
`,
      { min: 2, max: 2 },
    );
    // The inner loop reads `it` itself (`it == s4`): it goes along its list, its element taken each round.
    expect(generatedSource(pack)).not.toMatch(BARE);
    sameOnBoth(pack, 2);
  });
});
