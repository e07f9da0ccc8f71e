/**
 * Packs the fuzzer's long runs found wrong, each kept as the input it was: a case's number makes
 * it from the packs of its day (`npm run fuzz`), and names another input once a pack is added.
 */
import { describe, expect, it } from 'vitest';
import { readPackFolder } from '../../compiler/packFolder.ts';
import { checkInput } from '../../scripts/fuzzCheck.ts';

describe('cases the long runs found', () => {
  it('case 70,246 of seed 1: a key given twice at the end of a file is marked inside the file (RB0010)', () => {
    // test/packs/tiny with its pack.yaml cut down to a key given twice, the last with no line end.
    const game = readPackFolder('test/packs/tiny').find((f) => f.path === 'game.yaml')!;
    const r = checkInput({ files: [{ path: 'pack.yaml', text: 'id:\nid:' }, game], dependencies: {}, how: [] }, 70246);
    expect(r.problem).toBeUndefined();
    expect(r.diagnostics).toBe(1);
  });
});
