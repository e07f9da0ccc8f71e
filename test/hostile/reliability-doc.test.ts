/**
 * docs/reliability.md is written by `npm run reliability`; this checks it is current in structure
 * (every section, every hostile test file, every shipped pack, no failure), not its timings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { limitsSection } from '../../scripts/reliabilityLimits.ts';

const doc = readFileSync('docs/reliability.md', 'utf8');

describe('docs/reliability.md', () => {
  it('has its sections in order, written by the command', () => {
    const headings = doc.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).toEqual(['# Reliability', '## Hostile inputs', '## Limits', '## Fuzzing the compiler', '## The runtime under random and tampered choices', '## The bot sweep']);
    expect(doc).toContain('Written by `npm run reliability`');
  });

  it('reports no failure anywhere', () => {
    expect(doc).toContain('**Failures: 0**');
    expect(doc).not.toContain('**failed**');
    expect(doc.match(/^- failures: (\d+)$/gm)).toEqual(['- failures: 0', '- failures: 0']);
  });

  it('lists the outcome of every hostile test file there is', () => {
    const files = readdirSync('test/hostile').filter((f) => f.endsWith('.test.ts') && f !== 'reliability-doc.test.ts');
    const listed = new Set([...doc.matchAll(/^\| ([\w.-]+\.test\.ts) \|/gm)].map((m) => m[1]));
    expect([...listed].sort()).toEqual(files.sort());
    const tried = Number(/^([\d,]+) inputs tried/m.exec(doc)?.[1].replace(/,/g, ''));
    expect(tried).toBe(doc.split('\n').filter((l) => /^\| [\w.-]+\.test\.ts \|/.test(l)).length);
  });

  it('lists the limits the code holds now', () => {
    expect(doc).toContain(`\n${limitsSection().join('\n')}\n`);
  });

  it('gives the figures of the fuzzer, the runtime model and the sweep', () => {
    expect(Number(/^- cases run: ([\d,]+)/m.exec(doc)?.[1].replace(/,/g, ''))).toBeGreaterThan(0);
    for (const pack of readdirSync('content')) expect(doc).toMatch(new RegExp(`^\\| ${pack} \\| [\\d,]+ \\| [\\d,]+ \\| [\\d,]+ \\| as promised \\|$`, 'm'));
    expect(Number(/^- games played by random bots: ([\d,]+)/m.exec(doc)?.[1].replace(/,/g, ''))).toBeGreaterThan(0);
    expect(Number(/^- steps, each followed by a check of the pack's invariants: ([\d,]+)/m.exec(doc)?.[1].replace(/,/g, ''))).toBeGreaterThan(0);
  });
});
