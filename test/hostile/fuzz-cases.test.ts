/**
 * Packs the fuzzer's long runs found wrong, each kept as the input it was (`npm run fuzz` makes
 * case N of a seed the same way every time).
 */
import { describe, expect, it } from 'vitest';
import { checkCase } from '../../scripts/fuzzCheck.ts';

describe('cases the long runs found', () => {
  it('case 70,246 of seed 1: a key given twice at the end of a file is marked inside the file (RB0010)', () => {
    const r = checkCase(1, 70246);
    expect(r.problem).toBeUndefined();
    expect(r.diagnostics).toBe(1);
  });
});
