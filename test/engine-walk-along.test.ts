/**
 * A loop of the generated code over the list a property gives an entity (`s.near`) reads a
 * property of each element (`it.worth`, a function's argument's `x.near`, a loop over that list in
 * turn) from a column made once alongside the list's, by the loop's index (`codegen/emit.ts`,
 * `Walk`), and a loop over a list of the rules' own (`spots`, an action's domain as its choices
 * are listed) from that list's own column: games
 * play the same under both engines, byte for byte, with such loops in `sum`,
 * `where`, `first`, `lowest`, `highest`, `any` and in a function given inline, and where a
 * property's column is not all lists (another kind's property of the same name is a number) the
 * loop reads each element's property by its id, as before. So they do at a walk's edges: lists
 * with repeats or empty, a none read through the walk, a state list (never walked along a column).
 */
import { describe, expect, it } from 'vitest';
import { type CompiledPack, type EngineName } from '../runtime/index.ts';
import { generatedSource } from '../runtime/link.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { choiceTrail } from './helpers/choiceTrail.ts';

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

/**
 * The edges of a walk: lists with repeats, an empty list, an element walked whose optional
 * property is none, a list written out with repeats, a state list (which changes, so is never
 * walked along a column), a second kind with a property of the same name (`worth`, a number in
 * both), walks nested in functions given inline, and the domain's walk.
 */
const edgesYaml = `kinds:
  cell:
    props:
      near: list<cell>
      worth: number
      pal: cell?
      tags: list<number>
    state:
      owner: player?
      seen: list<cell>
  rock:
    props:
      worth: number
  game:
    state:
      total: number
      pile: list<cell>
      hits: list<number>
entities:
  - cell: c1
    near: [c2, c2, c3, c1]
    worth: 2
    pal: c3
    tags: [1, 1]
  - cell: c2
    near: [c1]
    worth: -1
    tags: []
  - cell: c3
    near: [c1, c2, c4, c4, c5]
    worth: 3
    pal: c1
    tags: [7]
  - cell: c4
    near: []
    worth: 0
    pal: c4
    tags: [2, 3]
  - cell: c5
    near: [c5, c5]
    worth: 5
    tags: [4]
  - rock: r1
    worth: 9
rules: |
  fn w(x: cell?): number = if x == none then 100 else x.worth + count(x.near)
  fn deep(x: cell): number = sum(x.near, w(it.pal) + sum(it.near, it.worth))
  action pick(c: cell) "Pick {c}" {
    require c.owner == none and c.worth + count(c.near where it.worth > c.worth) != 4 else "{c} no"
    let k = sum(c.near, it.worth + w(it.pal))
    require k != 7 else "seven"
    c.owner = me
    c.seen += c.near
    game.pile += [c]
    game.total += k + deep(c) + sum([c1, c1, c4, c2], it.worth * count(it.tags))
    game.total += sum(game.pile, it.worth) + sum(c.seen, it.worth) + sum(cells where it.pal != none, it.pal.worth)
    game.total += count(cells where any(it.near, it.owner == me)) + sum(c.near, sum(it.tags, it))
    let f = first(c.near where it.worth > 0)
    if f != none {
      game.hits += [f.worth, lowest(c.near, it.worth).worth, highest(f.near, it.worth).worth, w(lowest(cells, it.worth))]
    }
    let hp = highest(c.near, if it.pal == none then -5 else it.pal.worth)
    if hp != none { game.hits += [hp.worth] }
  }
  action skip "Skip" {
    require sum(game.pile, it.worth) < 100 else "full"
    game.total += 1
  }
  flow {
    loop max 4 {
      for p in players {
        turn p { offer p: pick, skip }
      }
    }
  }
`;

/** The reads of a column taken before a loop, alongside the list it walks: by the owner, or from its entry in the list's column joined with them (`Unit.taken`). */
const TAKEN = /v\d+ = (?:k\d+\.get\(v\d+\)|v\d+\[[1-9]\d*\]);/g;

/** A read of one element's property by its id, its default after `??`. */
const BY_ID = /\(k\d+\.get\(v\d+\) \?\? /;

/** The bodies of the generated loops over a list (`for (v3 = 0; …) {…}`), each with the loops inside it. */
function loopBodies(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/for \(v\d+ = 0; [^)]*\) \{/g)) {
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < source.length; end++) {
      if (source[end] === '{') depth++;
      else if (source[end] === '}' && --depth === 0) break;
    }
    out.push(source.slice(m.index + m[0].length, end));
  }
  return out;
}

describe('loops walked along a property of the elements of a list property', () => {
  it('read the elements’ properties by the loop’s index, not by their ids', () => {
    const source = generatedSource(spots(false));
    // `sum(s.near, it.worth)` twice, `far`'s `x.near` in `count(s.near where far(it))` and `any(…)`,
    // `sum(x.near, it.worth)` inside it, `first`, `lowest` (`highest` walks `f.near`, a local's list, too).
    expect(source.match(TAKEN)?.length).toBeGreaterThanOrEqual(6);
    // `sum(spots, …)` and `spots where …` read `it.worth` and `it.near` from the columns alongside the list `spots`.
    expect(source.match(/k\d+\[v\d+\]/g)?.length).toBeGreaterThanOrEqual(3);
    // Listing `claim`, its parameter walks its domain (every spot) reading `s.worth` and `s.near`.
    expect(source).toMatch(/if \(d !== k\d+\) throw new Error\(k\d+\);(?:if \(d\.length !== 0\) \{[^}]*\})?for \(let j = 0;[^}]*k\d+\[j\]/);
    // No element's property is read by its id inside a loop over a list: there, `worth` and `near` come from the columns.
    const loops = loopBodies(source);
    expect(loops.length).toBeGreaterThanOrEqual(6);
    expect(loops.filter((body) => BY_ID.test(body))).toEqual([]);
    // Where a property's column is not all lists, they are read by id inside the loops: what the count above would see.
    expect(loopBodies(generatedSource(spots(true))).filter((body) => BY_ID.test(body)).length).toBeGreaterThanOrEqual(6);
  });

  it('play the same games under both engines', () => {
    const pack = spots(false);
    for (let seed = 1; seed <= 8; seed++) {
      const [gen, ref] = ENGINES.map((engine) => choiceTrail(pack, engine, seed));
      expect(gen).toEqual(ref);
    }
  });

  it('read by id where the property’s column is not all lists, the same games', () => {
    const pack = spots(true);
    expect(generatedSource(pack).match(TAKEN)).toBeNull();
    for (let seed = 1; seed <= 8; seed++) {
      const [gen, ref] = ENGINES.map((engine) => choiceTrail(pack, engine, seed));
      expect(gen).toEqual(ref);
    }
  });

  it('play the same games at the edges of a walk, 40 seeds', () => {
    const pack = compileOk(edgesYaml, { min: 2, max: 2 });
    const source = generatedSource(pack);
    // The walks are taken (`c.near`, `x.near`, `it.near` nested, `f.near`), `cells` and the domain walked by their columns.
    expect(source.match(TAKEN)?.length).toBeGreaterThanOrEqual(10);
    expect(source.match(/k\d+\[v\d+\]/g)?.length).toBeGreaterThanOrEqual(2);
    expect(source).toMatch(/if \(d !== k\d+\) throw new Error\(k\d+\);(?:if \(d\.length !== 0\) \{[^}]*\})?for \(let j = 0;[^}]*k\d+\[j\]/);
    for (let seed = 1; seed <= 40; seed++) {
      const [gen, ref] = ENGINES.map((engine) => choiceTrail(pack, engine, seed));
      expect(gen).toEqual(ref);
    }
  });
});
