/**
 * `npm run bench`'s card text part: the mutation benchmark (every single mutation of the shipped
 * cards' rules and texts) and the realistic-mistakes benchmark (translators' mistakes and faithful
 * rewordings), with their rates. The tests hold floors on both (test/text-mutation.test.ts,
 * test/text-mistakes.test.ts); this prints them, and every miss with TEXT_BENCH_VERBOSE=1.
 */
import { join } from 'node:path';
import { mistakesReport, runMistakes } from './textMistakes.ts';
import { mutationSummary, runAllPacks } from './textMutations.ts';

const root = join(import.meta.dirname, '..');
const verbose = !!process.env.TEXT_BENCH_VERBOSE;
const runs = runAllPacks(root);
for (const run of runs.values()) console.log(run.report);
console.log(mutationSummary(runs, verbose));
console.log(mistakesReport(runMistakes(root), verbose));
