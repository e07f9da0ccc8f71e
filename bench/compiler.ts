/**
 * `BASE=<folder of another checkout> npx tsx bench/compiler.ts`: this tree's compiler against that
 * checkout's on the default pack, round after round, each in a child process of its own: a cold
 * compile (every file and rules text one no cache has seen, as in bench/run.ts) beside the YAML
 * parse of the same texts in the same process, and the re-check after each of 10 successive edits
 * of one card in a compile session: of its rules text, and of one of its numbers (a value no rule is
 * checked against, compiler/incremental.ts). The other checkout needs its node_modules (a link to
 * this tree's will do). ROUNDS (default 15) sets the rounds, WARM (default 8) the untimed rounds
 * before them; the load average is printed with the figures.
 *
 * Why a process each: run in one process, the two compilers shared the libraries' JIT code and one
 * heap, and the same code on both sides came out 15–90% apart depending on which was loaded and
 * run first and which ran after which (the one that ran after the other paid for collecting its
 * garbage). Apart, each has its own JIT and heap, and the parent runs them in turn, the order
 * alternating round by round, while the other waits. Timings are CPU time of the child (its GC
 * and compiler threads included), medians of the timed rounds, after rounds that warm the JIT:
 * the first compiles of a process run code V8 is still optimising on its helper threads.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'yaml';
import type * as Compiler from '../compiler/index.ts';
import type * as PackFolder from '../compiler/packFolder.ts';
import { median, timed } from './measure.ts';

const EDITS = 10;
const CARD = 'races/orcs.yaml';

/** The texts with a comment `tag` in every rules block and at the end: no cache holds them. */
const fresh = (texts: Compiler.SourceFile[], tag: string) => texts.map((f) => ({ path: f.path, text: `${f.text.replace(/(rules: \|[-+]?\n)( +)/g, `$1$2# ${tag}\n$2`)}\n# ${tag}\n` }));

/** What a round asks of a child: the work is made from the round's number, so both sides get the same texts. */
interface Task {
  kind: 'cold' | 'edit' | 'number';
  round: number;
}
type Timing = { parse: number; compile: number } | { ms: number };

if (process.env.BENCH_COMPILER_TREE) await child(process.env.BENCH_COMPILER_TREE);
else await parent();

async function child(folder: string): Promise<void> {
  const compiler: typeof Compiler = await import(pathToFileURL(resolve(folder, 'compiler/index.ts')).href);
  const { readPackFolder }: typeof PackFolder = await import(pathToFileURL(resolve(folder, 'compiler/packFolder.ts')).href);
  const files = readPackFolder(process.env.BENCH_COMPILER_PACK!).filter((f) => !f.path.startsWith('scenarios/'));
  if (!/\btokens: \d+/.test(files.find((f) => f.path === CARD)?.text ?? '')) throw new Error(`${CARD} has no \`tokens: <number>\` to edit`);
  const session = new compiler.CompileSession();
  session.compile(files);
  const parse = (texts: Compiler.SourceFile[]) => {
    for (const f of texts) parseDocument(f.text, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
  };
  const edited = (round: number) => Array.from({ length: EDITS }, (_, i) => files.map((f) => (f.path === CARD ? fresh([f], `edit ${round} ${i}`)[0] : f)));
  const numbered = (round: number) => Array.from({ length: EDITS }, (_, i) => files.map((f) => (f.path === CARD ? { path: f.path, text: f.text.replace(/\btokens: \d+/, `tokens: ${100 * round + i + 10}`) } : f)));
  const run = ({ kind, round }: Task): Timing => {
    if (kind === 'cold') {
      const texts = fresh(files, `cold ${round}`);
      // The parse and the compile take turns at going first, as the children do.
      if (round % 2) {
        const compile = timed(() => compiler.compile(texts));
        return { parse: timed(() => parse(texts)), compile };
      }
      const parsed = timed(() => parse(texts));
      return { parse: parsed, compile: timed(() => compiler.compile(texts)) };
    }
    const inputs = kind === 'edit' ? edited(round) : numbered(round);
    return { ms: timed(() => inputs.forEach((t) => session.analyze(t, { lower: false }))) };
  };
  process.on('message', (task: Task) => process.send!(run(task)));
  process.send!('ready');
}

async function parent(): Promise<void> {
  if (!process.env.BASE) throw new Error('set BASE to the folder of the checkout to compare with');
  const ROUNDS = Number(process.env.ROUNDS ?? 15);
  const WARM = Number(process.env.WARM ?? 8);
  const pack = resolve('content/smallworld-wow');
  const start = (folder: string) => fork(import.meta.filename, [], { env: { ...process.env, BENCH_COMPILER_TREE: folder, BENCH_COMPILER_PACK: pack } });
  const sides = { here: start(resolve(import.meta.dirname, '..')), base: start(resolve(process.env.BASE)) };
  // Each child answers one message at a time; a child that dies ends the bench.
  const waiting = new Map<ChildProcess, (m: unknown) => void>();
  for (const c of Object.values(sides)) {
    c.on('message', (m) => waiting.get(c)?.(m));
    c.on('exit', (code) => {
      if (code) throw new Error(`a child compiler exited with ${code}`);
    });
  }
  const reply = <T>(c: ChildProcess) => new Promise<T>((ok) => waiting.set(c, (m) => ok(m as T)));
  await Promise.all([reply(sides.here), reply(sides.base)]);
  const ask = (c: ChildProcess, task: Task) => {
    const answer = reply<Timing>(c);
    c.send(task);
    return answer;
  };

  /** Timed rounds of `kind`, after the untimed ones; one child at a time, the first alternating. */
  const rounds = async (kind: Task['kind']) => {
    const got = { here: [] as Timing[], base: [] as Timing[] };
    for (let round = -WARM; round < ROUNDS; round++) {
      const order = round % 2 ? (['base', 'here'] as const) : (['here', 'base'] as const);
      for (const side of order) {
        // Warming rounds are numbered from ROUNDS on: no timed round sees their texts.
        const t = await ask(sides[side], { kind, round: round < 0 ? ROUNDS - round : round });
        if (round >= 0) got[side].push(t);
      }
    }
    return got;
  };
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  const cold = await rounds('cold');
  const of = (ts: Timing[], k: 'parse' | 'compile') => median(ts.map((t) => (t as { parse: number; compile: number })[k]));
  const edit = await rounds('edit');
  const number = await rounds('number');
  const each = (ts: Timing[]) => median(ts.map((t) => (t as { ms: number }).ms)) / EDITS;
  for (const c of Object.values(sides)) c.disconnect();

  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; CPU-time medians of ${ROUNDS} rounds after ${WARM} untimed, each tree in its own process, taking turns`);
  const [hp, hc, bp, bc] = [of(cold.here, 'parse'), of(cold.here, 'compile'), of(cold.base, 'parse'), of(cold.base, 'compile')];
  console.log(`cold compile: this tree ${ms(hc)} (${(hc / hp).toFixed(2)}× its process's YAML parse, ${ms(hp)}), base ${ms(bc)} (${(bc / bp).toFixed(2)}× its parse, ${ms(bp)}); this tree / base ${(hc / bc).toFixed(2)}×`);
  console.log(`re-check after one edit of ${CARD}: this tree ${ms(each(edit.here))}, base ${ms(each(edit.base))}; this tree / base ${(each(edit.here) / each(edit.base)).toFixed(2)}×`);
  console.log(`re-check after one number of ${CARD} changed: this tree ${ms(each(number.here))}, base ${ms(each(number.base))}; this tree / base ${(each(number.here) / each(number.base)).toFixed(2)}×`);
}
