/**
 * `BASE=<folder of another checkout> npx tsx bench/compiler.ts`: this tree's compiler against that
 * checkout's, in one process, round after round (bench/measure.ts), on the default pack: a cold
 * compile (every file and rules text one no cache has seen, as in bench/run.ts) beside the YAML
 * parse of the same texts, and the re-check after each of 10 successive edits of one card in a
 * compile session: of its rules text, and of one of its numbers (a value no rule is checked
 * against, compiler/incremental.ts). The other checkout needs its node_modules (a link to this
 * tree's will do). ROUNDS (default 15) sets the rounds; the load average is printed with the figures.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'yaml';
import type * as Compiler from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { interleaved } from './measure.ts';

if (!process.env.BASE) throw new Error('set BASE to the folder of the checkout to compare with');
// Both compilers share the libraries they import (the node_modules link), whose JIT code the one
// loaded and run first shapes: FIRST=base loads and warms the base first. With the same code on
// both sides the re-check still favours this tree whichever comes first (cause not found), so a
// comparison is run both ways: from each checkout with BASE the other.
const FIRST = process.env.FIRST === 'base' ? 'base' : 'here';
const load = (folder: string): Promise<typeof Compiler> => import(pathToFileURL(resolve(folder, 'compiler/index.ts')).href);
const folders = { here: resolve(import.meta.dirname, '..'), base: process.env.BASE };
const loaded = FIRST === 'base' ? [await load(folders.base), await load(folders.here)].reverse() : [await load(folders.here), await load(folders.base)];
const [here, base] = loaded;
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const EDITS = 10;
const CARD = 'races/orcs.yaml';
const files = readPackFolder('content/smallworld-wow').filter((f) => !f.path.startsWith('scenarios/'));
/** The texts with a comment `tag` in every rules block and at the end: no cache holds them. */
const fresh = (texts: Compiler.SourceFile[], tag: string) => texts.map((f) => ({ path: f.path, text: `${f.text.replace(/(rules: \|[-+]?\n)( +)/g, `$1$2# ${tag}\n$2`)}\n# ${tag}\n` }));

const sessions = { here: new here.CompileSession(), base: new base.CompileSession() };
for (const side of FIRST === 'base' ? (['base', 'here'] as const) : (['here', 'base'] as const)) sessions[side].compile(files);

const cold = interleaved(
  ROUNDS,
  {
    parse: (texts: Compiler.SourceFile[]) => {
      for (const f of texts) parseDocument(f.text, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
    },
    here: (texts: Compiler.SourceFile[]) => void here.compile(texts),
    base: (texts: Compiler.SourceFile[]) => void base.compile(texts),
  },
  (r) => fresh(files, `cold ${r}`),
);

const edits = (r: number) => Array.from({ length: EDITS }, (_, i) => files.map((f) => (f.path === CARD ? fresh([f], `edit ${r} ${i}`)[0] : f)));
const warm = interleaved(
  ROUNDS,
  {
    here: (texts: Compiler.SourceFile[][]) => texts.forEach((t) => sessions.here.analyze(t, { lower: false })),
    base: (texts: Compiler.SourceFile[][]) => texts.forEach((t) => sessions.base.analyze(t, { lower: false })),
  },
  edits,
);

if (!/\btokens: \d+/.test(files.find((f) => f.path === CARD)?.text ?? '')) throw new Error(`${CARD} has no \`tokens: <number>\` to edit`);
const numbers = (r: number) => Array.from({ length: EDITS }, (_, i) => files.map((f) => (f.path === CARD ? { path: f.path, text: f.text.replace(/\btokens: \d+/, `tokens: ${100 * r + i + 10}`) } : f)));
const values = interleaved(
  ROUNDS,
  {
    here: (texts: Compiler.SourceFile[][]) => texts.forEach((t) => sessions.here.analyze(t, { lower: false })),
    base: (texts: Compiler.SourceFile[][]) => texts.forEach((t) => sessions.base.analyze(t, { lower: false })),
  },
  numbers,
);

const ms = (x: number) => `${x.toFixed(2)} ms`;
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; CPU-time medians of ${ROUNDS} interleaved rounds; ${FIRST === 'base' ? 'the base' : 'this tree'} loaded and run first`);
console.log(`YAML parse ${ms(cold.parse)}; cold compile: this tree ${ms(cold.here)} (${(cold.here / cold.parse).toFixed(2)}× the parse), base ${ms(cold.base)} (${(cold.base / cold.parse).toFixed(2)}×)`);
console.log(`re-check after one edit of ${CARD}: this tree ${ms(warm.here / EDITS)}, base ${ms(warm.base / EDITS)}`);
console.log(`re-check after one number of ${CARD} changed: this tree ${ms(values.here / EDITS)}, base ${ms(values.base / EDITS)}`);
