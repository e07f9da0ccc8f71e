/**
 * A loop over the list a property gives an entity that is not itself walked (`c.lines`) reads the
 * list and every column its loop takes alongside it (`Unit.taken` in runtime/codegen/emit.ts) with
 * one look-up of the owner, in a map joining them, where each was a look-up of its own.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { generatedSource } from '../runtime/link.ts';
import { choiceTrail } from './helpers/choiceTrail.ts';

const pack = compile(readPackFolder('test/packs/tictactoe')).pack!;

describe('a walked list read with the columns its loop takes', () => {
  it('is one look-up of the owner', () => {
    const source = generatedSource(pack);
    // The win check's `any(c.lines, holds(it, me))`: the lines of the cell, the cells of each line and their numbers.
    const joined = source.match(/(v\d+) = k\d+\.get\(v\d+\) \?\? k\d+;v\d+ = \1\[0\];(?:v\d+ = \1\[[1-9]\];)+/g);
    expect(joined).not.toBeNull();
    expect(joined!.some((j) => j.includes('[2];'))).toBe(true);
  });

  it('plays the interpreter’s games, listing by listing', () => {
    for (let seed = 1; seed <= 30; seed++) expect(choiceTrail(pack, 'generated', seed)).toEqual(choiceTrail(pack, 'interpreter', seed));
  });
});
