/**
 * `npm run fuzz -- --cases N [--seed S] [--from K] [--workers W] [--out FILE]`: random and mutated
 * packs through the compiler, each under a watchdog (time and memory). Prints the number of cases
 * run and every failure with how its pack was made; exits 1 when there is one. `--out` keeps the
 * run's report as JSON, so a long run can be made in parts (`--from`) on a busy machine and the
 * parts given to `npm run reliability -- --fuzz-results`.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { runFuzz } from './fuzzRun.ts';

const { values } = parseArgs({ options: { cases: { type: 'string', default: '100000' }, seed: { type: 'string', default: '1' }, from: { type: 'string', default: '0' }, workers: { type: 'string' }, out: { type: 'string' } } });
const cases = Number(values.cases);
const started = performance.now();
let shown = 0;
const from = Number(values.from);
const report = await runFuzz({
  seed: Number(values.seed),
  from,
  cases,
  workers: values.workers ? Number(values.workers) : Math.max(1, availableParallelism() - 1),
  onProgress: (done) => {
    if (done - shown >= 1000 || done === cases) {
      shown = done;
      process.stderr.write(`\r${done} / ${cases} cases`);
    }
  },
});
process.stderr.write('\n');
for (const f of report.failures) console.log(`case ${f.n} (seed ${report.seed}): ${f.problem}\n  made by: ${(f.how ?? []).join('; ')}`);
console.log(`fuzz: ${report.cases} cases (seed ${report.seed}), ${report.diagnostics} diagnostics, ${report.failures.length} failures, ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (values.out) writeFileSync(values.out, JSON.stringify({ ...report, from }, null, 2) + '\n');
process.exitCode = report.failures.length ? 1 : 0;
