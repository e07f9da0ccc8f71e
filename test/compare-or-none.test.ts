/**
 * A field that may be none compared with what is not a literal (a cell's mark with `me`, the
 * winner with `it`) is generated as none told apart by a `===` of its own, then the other `===`
 * (emit.ts, `binary`): one seeing none and players' ids alike, V8 compares by a call of its general
 * comparison; one seeing the ids alone, V8's own copies of their texts (runtime/players.ts), it
 * compares inline by their pointers. The ids are those copies in every game however made (new, from
 * the kept setup, in another's objects, copied by a choice), and the comparisons mean what `==` and
 * `!=` meant: none equals none alone, a value itself alone, on either engine, whatever sides.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newGame, playoutApply, playoutChoices, type EngineName } from '../runtime/index.ts';
import { generatedSource } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { packIn } from './helpers/packFolder.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What the child prints: for each engine and way a game is made, whether each player's id, and each mark and winner written, is V8's own copy. */
const script = `
const own = new Function('x', 'return %IsInternalizedString(x)');
const { readPackFolder } = await import('./compiler/packFolder.ts');
const { compile } = await import('./compiler/index.ts');
const { newGame, playDriven, legalChoices, apply } = await import('./runtime/index.ts');
const pack = compile(readPackFolder('test/packs/tictactoe')).pack;
const out = {};
for (const engine of ['generated', 'interpreter']) {
  const first = newGame(pack, { players: 2, seed: 1, engine });
  const kept = newGame(pack, { players: 2, seed: 2, engine });
  const into = newGame(pack, { players: 2, seed: 3, engine, into: first });
  const r = apply(kept, legalChoices(kept)[0]);
  playDriven(into, () => 0);
  const marks = Object.values(into.e).map((rec) => rec.mark).filter((m) => typeof m === 'string');
  out[engine] = {
    players: [first, kept, into, r.state].map((st) => st.players.map(own)),
    current: own(r.state.current),
    marks: marks.length > 0 && marks.every(own),
    winner: into.e.game.winner === null || own(into.e.game.winner),
  };
}
console.log(JSON.stringify(out));
`;

describe("players' ids", () => {
  it("are V8's own copies of their texts, in a new game, one from the kept setup, one made in another's objects, and a copy", () => {
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const engine of ['generated', 'interpreter']) {
      expect(out[engine], engine).toEqual({ players: [[true, true], [true, true], [true, true], [true, true]], current: true, marks: true, winner: true });
    }
  });
});

describe('a field that may be none compared with what is not a literal', () => {
  it('tells none apart first in the generated win checks of tic-tac-toe and Connect Four', () => {
    for (const dir of ['test/packs/tictactoe', 'test/packs/connect-four']) {
      expect(generatedSource(packIn(dir)), dir).toMatch(/\((v\d+) === null \? v\d+ === null : \1 === v\d+\)/);
    }
  });

  /** A cell's mark (none, or a player) compared by `==` and `!=`, the field on either side, with the player picked and with the last player picked (none at first). */
  const pack = compileOk(
    `kinds:
  cell:
    state:
      mark: player?
      other: player?
  game:
    state:
      same: list<number>
entities:
  - cell: c1
rules: |
  action look(p: player) "Look at {p}" {
    game.same = game.same + [if c1.mark == p then 1 else 0, if p == c1.mark then 1 else 0, if c1.mark != p then 1 else 0, if p != c1.mark then 1 else 0, if c1.mark == c1.other then 1 else 0, if c1.mark != c1.other then 1 else 0]
    c1.other = p
    c1.mark = if c1.mark == none then p else none
  }
  flow {
    loop max 6 {
      for p in players {
        turn p { offer p: look }
      }
    }
  }
`,
    { min: 2, max: 2 },
  );

  it('means what `==` and `!=` meant, none equal to none alone, on either engine', () => {
    expect(generatedSource(pack)).toMatch(/=== null \? /);
    const engines: EngineName[] = ['generated', 'interpreter'];
    const [gen, ref] = engines.map((engine) => {
      const st = newGame(pack, { players: 2, seed: 1, engine });
      for (let i = 0; i < 12 && !st.over; i++) {
        const n = playoutChoices(st);
        if (n === 0) break;
        // Each player picked twice running: a mark is compared with the player who set it, and with the other.
        expect(playoutApply(st, Math.floor(i / 2) % n).ok).toBe(true);
      }
      return st;
    });
    expect(JSON.stringify(gen)).toBe(JSON.stringify(ref));
    const same = gen.e.game.same as number[];
    expect(same.length).toBe(72);
    // A check's six answers, as each side of `==` and `!=` reads them: none against a player, a player against itself or the other, none against none.
    for (let k = 0; k < same.length; k += 6) {
      const [eq, eqBack, ne, neBack, both, bothNot] = same.slice(k, k + 6);
      expect(eq).toBe(eqBack);
      expect(ne).toBe(neBack);
      expect(eq + ne).toBe(1);
      expect(both + bothNot).toBe(1);
    }
    expect(same.filter((x, i) => i % 6 === 0 && x === 1).length).toBeGreaterThan(0);
    expect(same.filter((x, i) => i % 6 === 4 && x === 1).length).toBeGreaterThan(0);
  });
});
