/**
 * CI's short, seeded run of the fuzzer (`npm run fuzz` runs a hundred thousand cases, and
 * `npm run reliability` reports them): random and mutated packs through the compiler, each in a
 * worker under a watchdog; no throw, no RB9000, no hang, every diagnostic inside a real file.
 */
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../scripts/fuzzRun.ts';

describe('the compiler under 300 random and mutated packs', () => {
  it('never throws, never reports RB9000, never hangs, always points into a file', { timeout: 300_000 }, async () => {
    const report = await runFuzz({ seed: 20261126, cases: 300, workers: 1 });
    expect(report.failures).toEqual([]);
    expect(report.cases).toBe(300);
    expect(report.diagnostics).toBeGreaterThan(300);
  });
});
