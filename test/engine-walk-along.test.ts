/**
 * A loop of the generated code over the list a property gives an entity (`s.near`) reads a
 * property of each element (`it.worth`, a function's argument's `x.near`, a loop over that list in
 * turn) from a column made once alongside the list's, by the loop's index (`codegen/emit.ts`,
 * `Walk`), and a loop over a list of the rules' own (`spots`, an action's domain as its choices
 * are listed) from that list's own column: games
 * play the same under both engines, byte for byte, with such loops in `sum`,
 * `where`, `first`, `lowest`, `highest`, `any` and in a function given inline, and where a
 * property's column is not all lists (another kind's property of the same name is a number) the
 * loop reads each element's property by its id, as before.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame, type CompiledPack, type EngineName } from '../runtime/index.ts';
import { generatedSource } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';

const ENGINES: EngineName[] = ['generated', 'interpreter'];

/** Spots near each other, each worth something; `tower` adds a kind whose `near` is a number. */
function spots(tower: boolean): CompiledPack {
  return compileOk(
    `kinds:
  spot:
    props:
      near: list<spot>
      worth: number
    state:
      owner: player?
${tower ? '  tower:\n    props:\n      near: number\n' : ''}  game:
    state:
      total: number
      hits: list<number>
entities:
  - spot: s1
    near: [s2, s3]
    worth: 2
  - spot: s2
    near: [s1, s3, s4]
    worth: 1
  - spot: s3
    near: [s1, s2, s4, s5]
    worth: 3
  - spot: s4
    near: [s2, s3, s5]
    worth: 0
  - spot: s5
    near: []
    worth: 5
${tower ? '  - tower: t1\n    near: 4\n' : ''}rules: |
  fn far(x: spot): bool = count(x.near where it.owner == me) > 1 or sum(x.near, it.worth) > 4
  action claim(s: spot) "Claim {s}" {
    require s.owner == none and s.worth + count(s.near) != 3 else "{s} is taken"
    s.owner = me
    game.total += sum(s.near, it.worth) + count(s.near where far(it))
    game.total += sum(spots, if it.worth > 1 and it.owner == none then it.worth else 0) + count(spots where any(it.near, it.owner == me))
    if any(s.near, far(it)) {
      let f = first(s.near where it.worth > 1)
      if f != none {
        game.hits += [f.worth, lowest(s.near, it.worth).worth, highest(f.near, it.worth).worth]
      }
    }
  }
  flow {
    loop max 2 {
      for p in players {
        turn p { offer p: claim }
      }
    }
  }
`,
    { min: 2, max: 2 },
  );
}

function trail(p: CompiledPack, engine: EngineName, seed: number): string[] {
  const out: string[] = [];
  let st = newGame(p, { players: 2, seed, engine });
  let k = seed;
  while (!st.over) {
    const legal = legalChoices(st);
    out.push(JSON.stringify(legal));
    k = (k * 7 + 3) % 11;
    const r = apply(st, legal[k % legal.length]);
    out.push(JSON.stringify(r.ok ? r.state : r));
    if (!r.ok) break;
    st = r.state;
  }
  return out;
}

/** The reads of a column taken before a loop, alongside the list it walks. */
const TAKEN = /v\d+ = typeof v\d+ === "string" \? k\d+\.get\(v\d+\) : undefined;/g;

describe('loops walked along a property of the elements of a list property', () => {
  it('read the elements’ properties by the loop’s index, not by their ids', () => {
    const source = generatedSource(spots(false));
    // `sum(s.near, it.worth)` twice, `far`'s `x.near` in `count(s.near where far(it))` and `any(…)`,
    // `sum(x.near, it.worth)` inside it, `first`, `lowest` (`highest` walks `f.near`, a local's list, too).
    expect(source.match(TAKEN)?.length).toBeGreaterThanOrEqual(6);
    // `sum(spots, …)` and `spots where …` read `it.worth` and `it.near` from the columns alongside the list `spots`.
    expect(source.match(/k\d+\[v\d+\]/g)?.length).toBeGreaterThanOrEqual(3);
    // Listing `claim`, its parameter walks its domain (every spot) reading `s.worth` and `s.near`.
    expect(source).toMatch(/if \(d === k\d+\) \{for \(let j = 0;[^}]*k\d+\[j\]/);
    // No element's property is read by its id: `worth` and `near` are read through the column only before the loops.
    expect(source).not.toMatch(/= v\d+;v\d+ = typeof v\d+ === "string" \? \(k\d+\.get\(v\d+\) \?\? 0\) : 0;v\d+ \+= /);
  });

  it('play the same games under both engines', () => {
    const pack = spots(false);
    for (let seed = 1; seed <= 8; seed++) {
      const [gen, ref] = ENGINES.map((engine) => trail(pack, engine, seed));
      expect(gen).toEqual(ref);
    }
  });

  it('read by id where the property’s column is not all lists, the same games', () => {
    const pack = spots(true);
    expect(generatedSource(pack).match(TAKEN)).toBeNull();
    for (let seed = 1; seed <= 8; seed++) {
      const [gen, ref] = ENGINES.map((engine) => trail(pack, engine, seed));
      expect(gen).toEqual(ref);
    }
  });
});
