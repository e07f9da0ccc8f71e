/**
 * `npm run reliability [-- --fuzz-cases N --model-runs N --sweep-seeds N]`: runs everything that
 * proves a stranger's pack cannot hurt you, and writes what it ran and what came out into
 * docs/reliability.md. The figures are never written by hand. `--fuzz-results a.json,b.json`
 * takes the fuzzer's figures from runs saved by `npm run fuzz -- --out` instead of fuzzing again
 * (a 100,000-case run made in parts on a busy machine); the parts must share one seed and cover
 * the cases from 0 without a gap or an overlap. `--hostile-only` runs the hostile inputs alone and
 * writes their section and the limits anew, keeping the other sections as the last full run wrote
 * them (a hostile test added between long runs). `--hostile-files a.test.ts,b.test.ts` runs those
 * files of test/hostile/ alone and puts their rows in place of the ones the document had, keeping
 * the other rows and sections; the section then says which rows come from which run, until a run
 * of every hostile file.
 *
 * - the hostile inputs of test/hostile/, one test each, through vitest, and the limits the code
 *   holds a stranger's content to (scripts/reliabilityLimits.ts);
 * - the fuzzer: random and mutated packs through the compiler (default 100,000);
 * - the runtime's model-based property on every shipped pack;
 * - the bot sweep, with every pack's invariants checked after every choice.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { sweepPacks } from '../simulate/sweep.ts';
import { runFuzz, type FuzzReport } from './fuzzRun.ts';
import { limitsSection } from './reliabilityLimits.ts';
import { checkRuntimeModel, type ModelStats } from './runtimeModel.ts';

const { values } = parseArgs({
  options: {
    'fuzz-cases': { type: 'string', default: '100000' },
    'fuzz-seed': { type: 'string', default: '1' },
    'fuzz-results': { type: 'string' },
    'model-runs': { type: 'string', default: '100' },
    'sweep-seeds': { type: 'string', default: '10' },
    workers: { type: 'string' },
    'hostile-only': { type: 'boolean', default: false },
    'hostile-files': { type: 'string' },
  },
});
const say = (line: string) => process.stderr.write(`${line}\n`);

interface HostileCase {
  file: string;
  name: string;
  passed: boolean;
  failure?: string;
  /** Milliseconds the test took, on the machine and load of this run. */
  ms: number;
}

/** What the issue promises each hostile input: refused within this, on a machine as loaded as the run's. */
const HOSTILE_SECONDS = 10;

const HOSTILE_FILES = readdirSync('test/hostile').filter((f) => f.endsWith('.test.ts') && f !== 'reliability-doc.test.ts');

/** Every test of these files of test/hostile/, run by vitest, with its outcome; not the check of this document itself. */
function hostileInputs(names: string[]): HostileCase[] {
  const dir = mkdtempSync(join(tmpdir(), 'rulebook-reliability-'));
  const out = join(dir, 'hostile.json');
  try {
    const files = names.map((f) => `test/hostile/${f}`);
    spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...files, '--project', 'unit', '--reporter=json', `--outputFile=${out}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    const report = JSON.parse(readFileSync(out, 'utf8')) as { testResults: Array<{ name: string; message?: string; assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string; failureMessages: string[]; duration?: number }> }> };
    return report.testResults.flatMap((f): HostileCase[] => {
      const file = f.name.replace(/^.*\/test\/hostile\//, '');
      if (!f.assertionResults.length) return [{ file, name: '(the file did not run)', passed: false, failure: f.message, ms: 0 }];
      return f.assertionResults.map((t) => {
        const ms = t.duration ?? 0;
        const slow = ms > HOSTILE_SECONDS * 1000 ? `took ${(ms / 1000).toFixed(1)} s, over ${HOSTILE_SECONDS} s` : undefined;
        return { file, name: [...t.ancestorTitles, t.title].join(' › '), passed: t.status === 'passed' && !slow, failure: t.failureMessages[0]?.split('\n')[0] ?? slow, ms };
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runtimeModel(runs: number): Array<{ pack: string; stats?: ModelStats; failure?: string }> {
  return readdirSync('content').sort().map((name) => {
    const dir = join('content', name);
    const files = readPackFolder(dir);
    const { pack } = compile(files, { dependencies: dependenciesOf(dir, files) });
    if (!pack) return { pack: name, failure: 'does not compile' };
    try {
      return { pack: name, stats: checkRuntimeModel(pack, { runs, seed: 20261126, maxCommands: 30 }) };
    } catch (e) {
      return { pack: name, failure: (e as Error).message.split('\n').slice(0, 3).join(' ') };
    }
  });
}

async function fuzzNow(cases: number): Promise<FuzzReport> {
  say(`fuzzing the compiler: ${n(cases)} cases …`);
  let shown = 0;
  const report = await runFuzz({
    seed: Number(values['fuzz-seed']),
    cases,
    workers: values.workers ? Number(values.workers) : Math.max(1, availableParallelism() - 1),
    onProgress: (done) => {
      if (done - shown >= 1000) {
        shown = done;
        process.stderr.write(`\r  ${n(done)} / ${n(cases)}`);
      }
    },
  });
  process.stderr.write('\n');
  return report;
}

/** Joins saved runs into one report, refusing parts that do not make one run from case 0. */
function savedFuzz(files: string[]): FuzzReport {
  const parts = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as FuzzReport & { from: number }).sort((a, b) => a.from - b.from);
  let next = 0;
  for (const p of parts) {
    if (p.seed !== parts[0].seed) throw new Error(`fuzz results: seeds differ (${parts[0].seed} and ${p.seed})`);
    if (p.from !== next) throw new Error(`fuzz results: cases ${next}… are ${p.from > next ? 'missing' : 'counted twice'}`);
    next = p.from + p.cases;
  }
  say(`fuzzing the compiler: ${n(next)} cases saved in ${parts.length} parts`);
  return { seed: parts[0]?.seed ?? 1, cases: next, diagnostics: parts.reduce((s, p) => s + p.diagnostics, 0), failures: parts.flatMap((p) => p.failures) };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const n = (x: number) => x.toLocaleString('en-US');

const DOC = 'docs/reliability.md';
const FUZZ_HEADING = '## Fuzzing the compiler';
const ROW = /^\| ([\w.-]+\.test\.ts) \| .* \| ([\d.]+) s \| (.*) \|$/;
const SEPARATELY = /^The rows of (.+) come from runs of those files alone/m;

/** A row of the hostile table: its file, its line, its time and whether it failed. */
interface HostileRow {
  file: string;
  line: string;
  ms: number;
  failed: boolean;
}

const rowOf = (h: HostileCase): HostileRow => ({
  file: h.file,
  line: `| ${h.file} | ${cell(h.name)} | ${(h.ms / 1000).toFixed(2)} s | ${h.passed ? 'as promised' : `**failed**: ${cell(h.failure ?? '')}`} |`,
  ms: h.ms,
  failed: !h.passed,
});

/**
 * The table's rows with those of the files run now in place of the document's (where the first of a
 * file's rows stood; a file new to the table after the others), and the files whose rows come from
 * runs of their own since the last run of every file.
 */
function mergedRows(now: HostileRow[], ran: string[]): { rows: HostileRow[]; separately: string[] } {
  const old = readFileSync(DOC, 'utf8');
  const rows: HostileRow[] = [];
  const placed = new Set<string>();
  for (const line of old.split('\n')) {
    const m = ROW.exec(line);
    if (!m || !HOSTILE_FILES.includes(m[1])) continue;
    if (!ran.includes(m[1])) rows.push({ file: m[1], line, ms: Number(m[2]) * 1000, failed: m[3].startsWith('**failed**') });
    else if (!placed.has(m[1])) {
      placed.add(m[1]);
      rows.push(...now.filter((r) => r.file === m[1]));
    }
  }
  rows.push(...now.filter((r) => !placed.has(r.file)));
  const before = SEPARATELY.exec(old)?.[1].split(', ').map((f) => f.replace(/`/g, '')) ?? [];
  return { rows, separately: [...new Set([...before, ...ran])].filter((f) => HOSTILE_FILES.includes(f)).sort() };
}

const only = values['hostile-files']?.split(',').map((f) => f.trim().replace(/^test\/hostile\//, ''));
const unknown = only?.filter((f) => !HOSTILE_FILES.includes(f)) ?? [];
if (unknown.length) throw new Error(`--hostile-files: no ${unknown.join(', ')} in test/hostile/ (there are ${HOSTILE_FILES.join(', ')})`);

say(`hostile inputs (vitest ${only ? only.map((f) => `test/hostile/${f}`).join(' ') : 'test/hostile'}) …`);
const ranNow = hostileInputs(only ?? HOSTILE_FILES).map(rowOf);
const { rows: hostile, separately } = only ? mergedRows(ranNow, only) : { rows: ranNow, separately: [] };
const hostileFailures = hostile.filter((h) => h.failed).length;
const slowest = (rows: HostileRow[]) => (Math.max(0, ...rows.map((h) => h.ms)) / 1000).toFixed(1);
const timing = separately.length
  ? `the slowest took ${slowest(hostile)} s, in the run that gave its row, with the other tests of that run sharing the machine`
  : `the slowest took ${slowest(hostile)} s in this run, with the whole file's tests sharing the machine`;

const hostileLines = [
  '## Hostile inputs',
  '',
  `${n(hostile.length)} inputs tried, one test each in \`test/hostile/\`; ${n(hostile.length - hostileFailures)} refused cleanly or handled as promised, ${hostileFailures} failed. Each must be refused within ${HOSTILE_SECONDS} s (${timing}); inputs run through the CLI get a 512 MB heap.`,
  ...(separately.length ? ['', `The rows of ${separately.map((f) => `\`${f}\``).join(', ')} come from runs of those files alone (\`--hostile-files\`), made after the run of every hostile file that gave the other rows.`] : []),
  '',
  '| File | Input | Time | Outcome |',
  '| --- | --- | --- | --- |',
  ...hostile.map((h) => h.line),
  '',
  '## Limits',
  '',
  'What a stranger\'s content is held to, as the code holds it (these figures are its constants), and what passing each gives.',
  '',
  ...limitsSection(),
  '',
];

/** The sections after the hostile inputs and their failures: run now, or the last full run's with `--hostile-only`. */
async function laterSections(): Promise<{ lines: string[]; failures: number }> {
  if (values['hostile-only'] || only) {
    const old = readFileSync(DOC, 'utf8');
    const from = old.indexOf(`\n${FUZZ_HEADING}\n`);
    const total = /^\*\*Failures: (\d+)\*\*$/m.exec(old);
    if (from < 0 || !total) throw new Error(`${DOC} has no full run to keep: run \`npm run reliability\` without --hostile-only or --hostile-files`);
    const oldHostile = (old.slice(0, from).match(/\| \*\*failed\*\*/g) ?? []).length;
    return { lines: old.slice(from + 1).replace(/\n$/, '').split('\n').concat(''), failures: Number(total[1]) - oldHostile };
  }
  const fuzz = values['fuzz-results'] ? savedFuzz(values['fuzz-results'].split(',')) : await fuzzNow(Number(values['fuzz-cases']));
  const modelRuns = Number(values['model-runs']);
  say(`the runtime's model: ${modelRuns} sequences per pack …`);
  const model = runtimeModel(modelRuns);
  const sweepSeeds = Number(values['sweep-seeds']);
  say(`the bot sweep: ${sweepSeeds} games per pack and number of players …`);
  const sweep = sweepPacks({ seeds: sweepSeeds });
  const modelFailures = model.filter((m) => m.failure).length;
  const total = (k: keyof ModelStats) => model.reduce((s, m) => s + (m.stats?.[k] ?? 0), 0);
  return {
    failures: fuzz.failures.length + modelFailures + sweep.failures.length,
    lines: [
      FUZZ_HEADING,
      '',
      `- cases run: ${n(fuzz.cases)} (seed ${fuzz.seed}; mutated shipped and test packs, their YAML and their rules text, and random packs)`,
      `- diagnostics reported: ${n(fuzz.diagnostics)}`,
      '- checked for every case: no throw, no RB9000, no hang (a watchdog per case), no worker out of 512 MB, every diagnostic in a real file at a valid line and column',
      `- failures: ${fuzz.failures.length}`,
      ...fuzz.failures.slice(0, 20).map((f) => `  - case ${f.n}: ${cell(f.problem.split('\n')[0])}`),
      '',
      '## The runtime under random and tampered choices',
      '',
      'fast-check, through `newGame`, `legalChoices`, `apply` and `replay` only: a legal choice is taken; an illegal or',
      'tampered one is refused with a reason and leaves the state byte for byte as it was; replaying any prefix of the',
      'choices gives the state they gave live.',
      '',
      '| Pack | Sequences | Choices taken | Tampered choices refused | Outcome |',
      '| --- | --- | --- | --- | --- |',
      ...model.map((m) => `| ${m.pack} | ${n(m.stats?.sequences ?? 0)} | ${n(m.stats?.steps ?? 0)} | ${n(m.stats?.refused ?? 0)} | ${m.failure ? `**failed**: ${cell(m.failure)}` : 'as promised'} |`),
      `| all | ${n(total('sequences'))} | ${n(total('steps'))} | ${n(total('refused'))} | ${modelFailures} failed |`,
      '',
      '## The bot sweep',
      '',
      `- games played by random bots: ${n(sweep.games)} (${sweepSeeds} seeds for every shipped pack and number of players)`,
      `- steps, each followed by a check of the pack's invariants: ${n(sweep.steps)}`,
      `- failures: ${sweep.failures.length}`,
      ...sweep.failures.slice(0, 20).map((f) => `  - ${f.pack}${f.players ? `, ${f.players} players, seed ${f.seed}, step ${f.step}` : ''}: ${cell(f.message)}`),
      '',
    ],
  };
}

const later = await laterSections();
const failures = hostileFailures + later.failures;
const lines = [
  '# Reliability',
  '',
  'What rulebook promises about content it did not write (a pack, a scenario file, a share link, a zip),',
  'and the runs that check it. Written by `npm run reliability` (scripts/reliability.ts) from the runs',
  'themselves; never edit it by hand. `test/hostile/reliability-doc.test.ts` checks it is current.',
  '',
  `**Failures: ${failures}**`,
  '',
  ...hostileLines,
  ...later.lines,
];
writeFileSync(DOC, lines.join('\n'));
say(`${DOC} written: ${failures} failures`);
process.exitCode = failures ? 1 : 0;
