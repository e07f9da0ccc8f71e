/**
 * `npm run bench`: figures, not assertions, each a ratio measured in the same run, the contenders
 * interleaved round by round and each figure the median of its rounds (bench/measure.ts).
 *
 * - Compiling the default pack cold (every parse cache missed: each round's texts are fresh, a
 *   comment added to every file and every rules block) against the yaml library's parse of its files
 *   and against the compile's own reading of them (compiler/yamlReader.ts); re-checking
 *   after a one-card edit in a compile session (compiler/incremental.ts: the card's rules checked
 *   again, the rest replayed), its diagnostics alone and with the pack lowered, each timed over
 *   successive edits as an editor makes them; that edit with a 150-choice game replayed under the
 *   new rules; the replay alone. Both sections run five untimed rounds first (the JIT's warm-up).
 * - Random playouts of tic-tac-toe and Connect Four written three ways — packs (test/packs/),
 *   boardgame.io games run headless by its reducer in production mode, and plain TypeScript —
 *   all picking among the same legally ordered moves with the same seeded picks, so each plays the
 *   same games (test/bench-games.test.ts). The pack's side runs twice, by the generated engine and
 *   by the interpreter (the reference; what a game naming no engine plays these two on, their rules
 *   doing too little per choice for generated code to pay: runtime/link.ts), and so does the whole
 *   default pack in this thread: the speed-up of generating the rules as JavaScript, on the same
 *   games. A pack's playout changes its state in place (`applyInPlace`, bench/packPlayout.ts), and
 *   the rows that say so are played in playout mode (no log, no choice ids, picks by place:
 *   docs/architecture.md), as simulations are; the small games are raced both ways.
 * - Small World's core rules by hand against the same rules as a pack. The pack side is the default
 *   pack's own vocabulary, boards and rules/ files with its races and powers reduced to their printed
 *   numbers and no artifacts or places (bench/smallworldCorePack.ts), rather than a test pack of its
 *   own: the rules raced are the rules the game is played with, and the hand-written side follows
 *   them (test/bench-smallworld-core.test.ts checks the same choices and scores seed by seed).
 * - The default pack by random bots through simulate() at 2–5 players, in this thread alone and on
 *   2 threads (`workers: 2`: this thread plus one worker thread, kept warm between runs of the same
 *   pack). A worker thread's start is its own pair of rows, cold and warm, from asking for the thread
 *   to its first game played, timed on the build as `npm install` leaves it (made first if stale);
 *   the runs are timed with both threads warm. Wall time is the one figure that says what the second
 *   core gives, so it needs a quiet machine; games a CPU-second (all threads, V8's own included)
 *   say what the split wastes on a busy one too; the load average is in the section's title, and the
 *   share of the machine's cores everything else took during the runs (other processes, interrupts)
 *   has a row per seat count (/proc/stat, of its cores there). The 2-thread speed-up is the median of
 *   the rounds' own ratios (a round: a 1-thread and a 2-thread run, side by side), and beside it the
 *   same over the rounds nothing else ran in, with how many they were.
 *   Where a 2-thread run's time goes: each playing thread's CPU against its wall time, and V8's
 *   helper threads' CPU against theirs (bench/threadCpu.ts); each thread's time a game in its games
 *   against this thread's alone (what both cores playing costs a game), when each thread began its
 *   first game and ended its last, and the time each thread is in no game, before its first, between
 *   games and after its last, with how long the worker's last results take to come back (simulate's
 *   timeline: what a run's fixed costs are).
 *   Memory per game state. Everything else is CPU time (bench/measure.ts).
 * - Small World, 4 players, random bots, single-threaded: this engine against the one issue #12 was
 *   filed at (4dab188), each on its own commit's pack in a child process, interleaved
 *   (bench/baseline.ts). It takes the old engine from git each run, and about a minute (the
 *   old engine plays BASELINE_ROUNDS (default 5) batches of BASELINE_GAMES (default 30) games and
 *   5 CPU-seconds of warm-up); a clone without that history skips it with one line.
 *
 * ROUNDS (default 7) sets the rounds of the interleaved figures, SW_GAMES (default 200, the
 * games a run of the issue's 2-thread target) and SW_ROUNDS (default 5) the Small World simulations, SW_WARM (default 200) their warm-up games at
 * each seat count; BENCH_ONLY picks sections, a comma-separated list
 * of `compile`, `playouts`, `simulations` and `baseline` (e.g. BENCH_ONLY=simulations, whose wall times are
 * fairest in a process that has not filled its heap with the sections before).
 */
import './production.ts';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseDocument } from 'yaml';
import { compile, CompileSession, type SourceFile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { readYaml } from '../compiler/yamlReader.ts';
import { apply, legalChoices, newGame, replay, type CompiledPack, type GameState } from '../runtime/index.ts';
import { buildIsCurrent } from '../bin/built.mjs';
import { buildNode } from '../scripts/build.mjs';
import { compiledPack, readPackContent } from '../simulate/packContent.ts';
import { simulate, type RunTimeline } from '../simulate/run.ts';
import { leaseWorkers } from '../simulate/warmPool.ts';
import { boardgameIoPlayer } from './boardgameio/play.ts';
import { connectFour, connectFourMoves } from './boardgameio/connectFour.ts';
import { ticTacToe, ticTacToeMoves } from './boardgameio/tictactoe.ts';
import { playConnectFour } from './handwritten/connectFour.ts';
import { playSmallWorldCore, smallWorldData } from './handwritten/smallworldCore.ts';
import { playTicTacToe } from './handwritten/tictactoe.ts';
import { BASELINE_REV, raceBaseline } from './baseline.ts';
import { batchFor, interleaved, median } from './measure.ts';
import { packPlayer } from './packPlayout.ts';
import { RandomPicker } from './randomPlayout.ts';
import { smallWorldCoreFiles } from './smallworldCorePack.ts';
import { threadSplit, threadTimes } from './threadCpu.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const SW_GAMES = Number(process.env.SW_GAMES ?? 200);
const SW_ROUNDS = Number(process.env.SW_ROUNDS ?? 5);
const DEFAULT_PACK = 'content/smallworld-wow';
const SECTIONS = process.env.BENCH_ONLY?.split(',').map((x) => x.trim());
const runs = (name: 'compile' | 'playouts' | 'simulations' | 'baseline') => !SECTIONS || SECTIONS.includes(name);

interface Row {
  figure: string;
  value: string;
  ratio?: string;
  target?: string;
}
// Each row printed as soon as it is measured: a run is long, and one cut short keeps what it had.
const [wf, wv, wr] = [76, 18, 28];
const rows = {
  push(r: Row): void {
    console.log(`${r.figure.padEnd(wf)}  ${r.value.padStart(wv)}  ${(r.ratio ?? '').padEnd(wr)}  ${r.target ?? ''}`.trimEnd());
  },
};
const section = (title: string) => console.log(`\n── ${title}`);
console.log(`${'figure'.padEnd(wf)}  ${'value'.padStart(wv)}  ${'ratio'.padEnd(wr)}  target`);
const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;
const perS = (x: number, unit: string) => `${x < 100 ? x.toFixed(2) : x.toFixed(0)} ${unit}/s`;
// Three places below 10: a ratio read against a target (0.2×, 1.85×) must not round up to it.
const times = (x: number) => `${x < 0.1 ? x.toFixed(4) : x < 10 ? x.toFixed(3) : x.toFixed(2)}×`;

function packOf(files: SourceFile[]): CompiledPack {
  const r = compile(files);
  if (!r.pack) throw new Error(`the pack does not compile: ${r.diagnostics.find((d) => d.severity === 'error')?.message}`);
  return r.pack;
}

/** The texts with a comment `tag` in every rules block and at the end: no parse cache holds them. */
function fresh(files: SourceFile[], tag: string): SourceFile[] {
  return files.map((f) => ({ path: f.path, text: `${f.text.replace(/(rules: \|[-+]?\n)( +)/g, `$1$2# ${tag}\n$2`)}\n# ${tag}\n` }));
}

/** The first `length` choices of the first game of random picks from `seed` on that lasts as long. */
function randomGame(pack: CompiledPack, players: number, seed: number, length: number): { seed: number; choices: string[] } {
  for (let s = seed; ; s++) {
    const pick = new RandomPicker(s);
    let st = newGame(pack, { players, seed: s });
    while (!st.over && st.choices.length < length) {
      const legal = legalChoices(st, { labels: false });
      st = (apply(st, legal[pick.index(legal.length)]) as { state: GameState }).state;
    }
    if (st.choices.length === length) return { seed: s, choices: st.choices };
  }
}

// ─── compiling ───
if (runs('compile')) {
  // The files the compiler reads: its scenarios are the scenario runner's.
  const files = readPackFolder(DEFAULT_PACK).filter((f) => !f.path.startsWith('scenarios/'));
  const pack = packOf(files);
  section(`compiling ${DEFAULT_PACK} (${files.length} files, ${(files.reduce((s, f) => s + f.text.length, 0) / 1024).toFixed(0)} KB)`);
  const parsed = (text: string) => parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
  const coldContenders = {
    parse: (texts: SourceFile[]) => {
      for (const f of texts) parsed(f.text);
    },
    read: (texts: SourceFile[]) => {
      for (const f of texts) readYaml(f.text) ?? parsed(f.text);
    },
    compile: (texts: SourceFile[]) => packOf(texts),
  };
  // The compile reads most files with its own reader, not the yaml code the parse warms: untimed
  // rounds first, else the first timed rounds measure the JIT (0.56-0.62× warmed against 0.86-1.14×).
  for (let r = 0; r < 5; r++) for (const run of Object.values(coldContenders)) run(fresh(files, `warm ${r}`));
  const cold = interleaved(ROUNDS, coldContenders, (r) => fresh(files, `cold ${r}`));
  rows.push({ figure: "YAML parse of every file (the yaml library's document)", value: ms(cold.parse) });
  rows.push({ figure: 'the same read as the compile reads them (own reader, else the library)', value: ms(cold.read), ratio: `${times(cold.read / cold.parse)} the parse` });
  // The issue's yardstick is the library's parse; against the compile's own reading, the second
  // ratio is what its passes after the YAML cost, so a slower pass shows even though the first holds.
  rows.push({ figure: 'cold compile (no parse cached)', value: ms(cold.compile), ratio: `${times(cold.compile / cold.parse)} the parse, ${times(cold.compile / cold.read)} the read`, target: '≤ 1.5× the parse' });

  const card = 'races/orcs.yaml';
  const edited = (r: number | string) => files.map((f) => (f.path === card ? fresh([f], `edit ${r}`)[0] : f));
  const players = 3;
  const { seed, choices } = randomGame(pack, players, 11, 150);
  const session = new CompileSession();
  session.compile(files);
  const sessionPack = (texts: SourceFile[]) => {
    const r = session.compile(texts);
    if (!r.pack) throw new Error(`the pack does not compile: ${r.diagnostics.find((d) => d.severity === 'error')?.message}`);
    return r.pack;
  };
  // An editor re-checks on every keystroke, one edit after another: each round times EDITS
  // successive edits of the card (each a new text) and the figure is per edit, so that what one
  // edit costs is not lost among the collections and compilations the other contenders' rounds leave.
  const EDITS = 10;
  const editsOf = (r: number, each: (texts: SourceFile[]) => unknown) => {
    for (let i = 0; i < EDITS; i++) each(edited(`${r} ${i}`));
  };
  const warmContenders = {
    recheck: (r: number) => editsOf(r, (texts) => session.analyze(texts, { lower: false })),
    recompile: (r: number) => editsOf(ROUNDS + r, sessionPack),
    editReplay: (r: number) => replay(sessionPack(edited(2 * ROUNDS + r)), { players, seed }, choices),
    replay: () => replay(pack, { players, seed }, choices),
  };
  // An editor's session is warm after its first keystrokes: untimed rounds first (edits of their own
  // texts, numbered apart from the timed ones), as for the cold compile, else the first timed rounds
  // measure the JIT.
  for (let r = 0; r < 5; r++) for (const run of Object.values(warmContenders)) run(1000 + r);
  const warm = interleaved(ROUNDS, warmContenders, (r) => r);
  rows.push({ figure: `re-check after one card edit (${card}; diagnostics, in a compile session)`, value: ms(warm.recheck / EDITS), ratio: `${times(warm.recheck / EDITS / cold.compile)} cold compile`, target: '< 3 ms' });
  rows.push({ figure: 're-compile after that edit, lowered to a runnable pack', value: ms(warm.recompile / EDITS), ratio: `${times(warm.recompile / EDITS / cold.compile)} cold compile` });
  rows.push({ figure: `edit → re-check and replay of a ${choices.length}-choice game`, value: ms(warm.editReplay), ratio: `${times(warm.editReplay / (warm.recheck / EDITS))} re-check`, target: 'part of < 100 ms in the playground' });
  rows.push({ figure: `replay of that ${choices.length}-choice game (${players} players)`, value: ms(warm.replay), ratio: perS((choices.length * 1000) / warm.replay, 'choices') });
}

// ─── random playouts, three ways ───
// The pack's side four times: in playout mode (no log, no choice ids, picks by place: what a
// simulation plays) and by `legalChoices` and `applyInPlace` (every choice made, labelled and
// logged); each by its rules as generated JavaScript and by the interpreter, the reference the
// generated code is tested against (test/engine-differential.test.ts).
type Way = 'hand' | 'bgio' | 'playout' | 'playoutInterp' | 'pack' | 'interp';
function race(title: string, ways: Record<Way, (seed: number) => unknown>, sliceMs: number) {
  // Every way warmed before any batch is sized: a batch sized on cold code is a few milliseconds,
  // which the collection of another way's garbage (boardgame.io's above all) then swamps.
  for (const way of Object.values(ways)) batchFor(way, sliceMs);
  const n = { hand: batchFor(ways.hand, sliceMs, 10), bgio: batchFor(ways.bgio, sliceMs), playout: batchFor(ways.playout, sliceMs), playoutInterp: 0, pack: batchFor(ways.pack, sliceMs), interp: 0 };
  n.playoutInterp = n.playout;
  n.interp = n.pack;
  const batch = (way: Way) => () => {
    for (let s = 1; s <= n[way]; s++) ways[way](s);
  };
  const names: Way[] = ['hand', 'bgio', 'playout', 'playoutInterp', 'pack', 'interp'];
  const t = interleaved(ROUNDS, Object.fromEntries(names.map((w) => [w, batch(w)])) as Record<Way, () => void>);
  const rate = (w: Way) => (n[w] * 1000) / t[w];
  section(`${title}, random playouts`);
  rows.push({ figure: 'by hand (TypeScript)', value: perS(rate('hand'), 'games') });
  rows.push({ figure: 'boardgame.io 0.50 (reducer, production)', value: perS(rate('bgio'), 'games') });
  rows.push({ figure: 'rulebook pack, playout mode (generated engine)', value: perS(rate('playout'), 'games'), ratio: `${times(rate('playout') / rate('hand'))} by hand`, target: '≥ 0.2× by hand' });
  rows.push({ figure: '', value: '', ratio: `${times(rate('playout') / rate('bgio'))} boardgame.io`, target: '≥ 30× boardgame.io' });
  rows.push({ figure: 'rulebook pack, playout mode (interpreter)', value: perS(rate('playoutInterp'), 'games'), ratio: `${times(rate('playoutInterp') / rate('bgio'))} boardgame.io` });
  rows.push({ figure: 'rulebook pack, every choice made and logged (generated engine)', value: perS(rate('pack'), 'games'), ratio: `${times(rate('pack') / rate('bgio'))} boardgame.io` });
  rows.push({ figure: 'rulebook pack, every choice made and logged (interpreter)', value: perS(rate('interp'), 'games'), ratio: `${times(rate('interp') / rate('bgio'))} boardgame.io` });
}

if (runs('playouts')) {
  const smallPack = (dir: string) => packOf(readPackFolder(dir));
  const tictactoePack = smallPack('test/packs/tictactoe');
  const connectFourPack = smallPack('test/packs/connect-four');
  const packWays = (pack: CompiledPack) => ({
    playout: packPlayer(pack, 2, 'generated', true),
    playoutInterp: packPlayer(pack, 2, 'interpreter', true),
    pack: packPlayer(pack, 2, 'generated'),
    interp: packPlayer(pack, 2, 'interpreter'),
  });
  race('tic-tac-toe', { hand: playTicTacToe, bgio: boardgameIoPlayer(ticTacToe, ticTacToeMoves), ...packWays(tictactoePack) }, 250);
  race('Connect Four', { hand: playConnectFour, bgio: boardgameIoPlayer(connectFour, connectFourMoves), ...packWays(connectFourPack) }, 250);

  {
    const players = 4;
    const pack = packOf(smallWorldCoreFiles(DEFAULT_PACK));
    const data = smallWorldData(pack);
    const byPack = packPlayer(pack, players, 'generated', true);
    const byInterpreter = packPlayer(pack, players, 'interpreter', true);
    const byHand = (seed: number) => {
      const pick = new RandomPicker(seed);
      return playSmallWorldCore(data, players, seed, (k) => pick.index(k));
    };
    const n = { hand: batchFor(byHand, 500, 10), pack: batchFor(byPack, 1000, 2) };
    byInterpreter(1);
    const t = interleaved(ROUNDS, {
      hand: () => {
        for (let s = 1; s <= n.hand; s++) byHand(s);
      },
      pack: () => {
        for (let s = 1; s <= n.pack; s++) byPack(s);
      },
      interp: () => {
        for (let s = 1; s <= n.pack; s++) byInterpreter(s);
      },
    });
    const rate = (w: 'hand' | 'pack' | 'interp') => (n[w === 'interp' ? 'pack' : w] * 1000) / t[w];
    section(`Small World core rules (no race, power, artifact or place), ${players} players, random playouts`);
    rows.push({ figure: 'by hand (TypeScript)', value: perS(rate('hand'), 'games') });
    rows.push({ figure: 'rulebook pack (default pack without card abilities), playout mode', value: perS(rate('pack'), 'games'), ratio: `${times(rate('pack') / rate('hand'))} by hand` });
    rows.push({ figure: 'the same by the interpreter', value: perS(rate('interp'), 'games'), ratio: `generated ${times(rate('pack') / rate('interp'))} the interpreter` });
  }

  {
    // The whole default pack, every race and power, in this thread: the generated engine against the interpreter on the same games.
    const players = 4;
    const pack = packOf(readPackFolder(DEFAULT_PACK));
    const ways = { pack: packPlayer(pack, players, 'generated', true), interp: packPlayer(pack, players, 'interpreter', true) };
    const n = batchFor(ways.pack, 1500, 2);
    ways.interp(1);
    const t = interleaved(ROUNDS, {
      pack: () => {
        for (let s = 1; s <= n; s++) ways.pack(s);
      },
      interp: () => {
        for (let s = 1; s <= n; s++) ways.interp(s);
      },
    });
    section(`Small World (${DEFAULT_PACK}), ${players} players, random playouts in playout mode in this thread, ${n} games a round`);
    rows.push({ figure: 'generated engine', value: perS((n * 1000) / t.pack, 'games'), ratio: `${times(t.interp / t.pack)} the interpreter` });
    rows.push({ figure: 'interpreter', value: perS((n * 1000) / t.interp, 'games') });
  }
}

// ─── Small World, the default pack ───
if (runs('simulations')) {
  section(`Small World (${DEFAULT_PACK}), random bots, ${SW_GAMES} games a run, median of ${SW_ROUNDS} runs; load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`);
  // A worker thread's start, from asking for it to its first game played (one 2-player game, sent
  // back): cold, the first in this process, as a user's first run pays it; warm, a kept thread of
  // the same pack (simulate/warmPool.ts), as every later run of the process does.
  const content = readPackContent(DEFAULT_PACK);
  const compiled = compiledPack(content);
  // Its CPU time too (the process's: this thread only waits meanwhile), which a busy machine leaves as it is.
  const firstGame = async () => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const lease = await leaseWorkers(content, compiled, 1, 1);
    await lease.pool.run({ players: 2, seeds: [1], agents: ['random'], maxSteps: 5000 });
    await lease.release(false);
    const d = process.cpuUsage(cpu);
    return { wall: performance.now() - t, cpu: (d.user + d.system) / 1000 };
  };
  // Timed as after `npm install`, which builds: a thread of a stale build transpiles its sources through tsx.
  let from = 'the build';
  if (!buildIsCurrent()) {
    try {
      await buildNode();
      from = 'the build, made now';
    } catch (e) {
      from = `tsx: the build failed, ${(e as Error).message.split('\n')[0]}`;
    }
  }
  const cold = await firstGame();
  rows.push({ figure: `worker start, cold: asked → first game played (entry: ${from})`, value: ms(cold.wall), ratio: `${ms(cold.cpu)} CPU`, target: '< 500 ms' });
  const warmStarts: Array<{ wall: number; cpu: number }> = [];
  for (let r = 0; r < 5; r++) warmStarts.push(await firstGame());
  rows.push({ figure: 'worker start, warm (the thread kept from the last run)', value: ms(median(warmStarts.map((x) => x.wall))), ratio: `${ms(median(warmStarts.map((x) => x.cpu)))} CPU` });

  // Wall time, and the process's CPU time too (all its threads: nothing else runs in it then), the
  // figure that a busy machine leaves as a quiet one would give it. The pack's content is read once,
  // as `rulebook simulate` reads it: a run times its games, not reading the folder again.
  // The machine's CPU time too (Linux's /proc/stat, in its 10 ms ticks): less this process's, what
  // everything else took meanwhile (other processes, interrupts, a hypervisor's steal). One thread
  // leaves it a free core; two threads lose to it about half their time, so a 2-thread ratio says what
  // the second core gives only when that share is ~0. The share is of the cores /proc/stat sums (a
  // `cpuN` line each), which this process's affinity or container may not all let it use
  // (availableParallelism()).
  const machineBusy = () => {
    try {
      const lines = readFileSync('/proc/stat', 'utf8').split('\n');
      const f = lines[0].trim().split(/\s+/).slice(1).map(Number);
      // user, nice, system, irq, softirq, steal: all but idle and iowait.
      return { ms: (f[0] + f[1] + f[2] + f[5] + f[6] + f[7]) * 10, cores: lines.filter((l) => /^cpu\d+\s/.test(l)).length };
    } catch {
      return undefined;
    }
  };
  const statCores = machineBusy()?.cores;
  /** Everything else's share of the cores under which a round counts as quiet. */
  const QUIET = 0.02;
  const run = async (players: number, workers: number, games = SW_GAMES) => {
    const threads = threadTimes();
    const busy = machineBusy();
    const cpu = process.cpuUsage();
    const t = performance.now();
    let timeline: RunTimeline | undefined;
    await simulate(content, { games, players, seed: 1, agents: ['random'], maxSteps: 5000, workers, onTimeline: (x) => (timeline = x) });
    const wall = performance.now() - t;
    const d = process.cpuUsage(cpu);
    const busyAfter = machineBusy();
    const after = threadTimes();
    const others = busy === undefined || busyAfter === undefined || !busy.cores ? undefined : Math.max(0, busyAfter.ms - busy.ms - (d.user + d.system) / 1000) / (busy.cores * wall);
    return { wall, cpu: (d.user + d.system) / 1000, split: threads && after ? threadSplit(threads, after) : undefined, timeline: timeline!, others };
  };
  // Both threads' code warmed alike before any run is timed (the start is the rows above): each
  // thread's first games run the interpreter, then generate the code of the parts of the rules that
  // ran often (runtime/link.ts), then wait for V8 to optimise it, function by function as each gets
  // hot, each thread for itself. Counted with --trace-opt over 100 games at a time, one thread, 2
  // players: 382 functions optimised in the first hundred (compiling the pack's among them), 64, 32
  // and 20 in the next three, 0–10 after (4 players: 458, 56, 17, 11, then 1–5); when every part's
  // code was generated, 418, 63, 56, 40, then 12–17 (4 players: 503, 73, 44, 45, then 10–41).
  // The worker thread plays only its share of the 2-thread runs, this
  // thread all of the 1-thread ones too: warmed by the 2-thread runs alone, the worker was still
  // optimising (on V8's helper threads, which take a core's time from the players when both
  // cores play) while the 1-thread runs it was compared with ran on settled code.
  const WARM_GAMES = Number(process.env.SW_WARM ?? 200);
  for (const players of [2, 3, 4, 5]) await run(players, 2, WARM_GAMES);
  for (const players of [2, 3, 4, 5]) {
    // And both threads again at this seat count just before its rounds: the first round's 1-thread
    // run gives this thread 200 games of it before the first 2-thread run, while the worker comes from
    // the last seat count. Worker ÷ this thread, CPU-ms a game, 2-4 players, 8 bench runs without this:
    // mean 1.09 in the first round (6 of 24 runs over 1.10, up to 1.62), 1.05 in the others (13 of 96);
    // one run with it: 1.01 and 0.98 (1 of 15 over 1.10). Load ~1.3 on 2 cores; the rest of the
    // worker's slow runs is not explained (not its GC, --trace-gc; not being preempted or migrated).
    await run(players, 2, WARM_GAMES);
    const one: Array<Awaited<ReturnType<typeof run>>> = [];
    const two: typeof one = [];
    for (let r = 0; r < SW_ROUNDS; r++) {
      if (r % 2 === 0) {
        one.push(await run(players, 1));
        two.push(await run(players, 2));
      } else {
        two.push(await run(players, 2));
        one.push(await run(players, 1));
      }
    }
    const rate = (xs: Array<{ wall: number; cpu: number }>, k: 'wall' | 'cpu') => (SW_GAMES * 1000) / median(xs.map((x) => x[k]));
    const a = rate(one, 'wall');
    const b = rate(two, 'wall');
    // The speed-up is the median of the rounds' own ratios, each of two runs side by side in time:
    // a machine busier in some rounds than in others moves both runs of a round alike, where a ratio
    // of the two medians could take them from different rounds.
    const pairs = one.map((x, r) => x.wall / two[r].wall);
    const spread = `rounds ${times(Math.min(...pairs))}–${times(Math.max(...pairs))}`;
    rows.push({ figure: `${players} players, this thread (wall time)`, value: perS(a, 'games'), ratio: `${perS(rate(one, 'cpu'), 'games')} a CPU-second` });
    // Their CPU time (both threads and V8's own) against one thread's says what the split wastes, on a busy machine too.
    rows.push({ figure: `${players} players, 2 threads (wall time); ÷ one thread, median of the rounds`, value: perS(b, 'games'), ratio: `${times(median(pairs))} one thread (${spread})`, target: players === 4 ? '≥ 167 games/s; ≥ 1.85× one' : '≥ 1.85× one' });
    const others = (xs: typeof one) => xs.map((x) => x.others).filter((x): x is number => x !== undefined);
    if (others(one).length && others(two).length) {
      rows.push({
        figure: `${players} players: everything else's CPU during the runs (other processes, interrupts), of the ${statCores} cores of /proc/stat (median)`,
        value: `${(100 * median(others(one))).toFixed(1)}% · ${(100 * median(others(two))).toFixed(1)}%`,
        ratio: `1 thread · 2 threads; in one run at most ${(100 * Math.max(...others(one), ...others(two))).toFixed(1)}%`,
      });
      // The same ratio over the rounds the rest of the machine left alone, told apart from the one
      // above, which is the figure: what the code does when nothing else runs, and how often that was.
      const quiet = pairs.filter((_, r) => (one[r].others ?? 1) < QUIET && (two[r].others ?? 1) < QUIET);
      rows.push({
        figure: `${players} players, 2 threads ÷ one in the rounds where everything else took < ${100 * QUIET}% of the cores (both runs)`,
        value: quiet.length ? times(median(quiet)) : 'none',
        ratio: `${quiet.length} of ${pairs.length} rounds`,
      });
    }
    rows.push({ figure: `${players} players, 2 threads, games a CPU-second (all threads)`, value: perS(rate(two, 'cpu'), 'games'), ratio: `${times(rate(two, 'cpu') / rate(one, 'cpu'))} one thread's` });
    // Where the second core's share goes: each playing thread's CPU against the run's wall time
    // (idle time is a thread waiting: a run's start or its last game), and V8's helper threads
    // against the players', which with every core playing take the players' time.
    const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
    const splits = (xs: typeof one) => xs.flatMap((x) => (x.split ? [{ ...x.split, wall: x.wall }] : []));
    const [s1, s2] = [splits(one), splits(two)];
    if (s1.length && s2.length) {
      const busy = (k: number) => median(s2.map((s) => ([s.main, ...s.workers][k] ?? 0) / s.wall));
      const helpers = (ss: typeof s1) => median(ss.map((s) => s.helpers / (s.main + s.workers.reduce((a, b) => a + b, 0))));
      rows.push({
        figure: `${players} players, 2 threads: CPU of this thread, of the worker / wall time`,
        value: `${pct(busy(0))} · ${pct(busy(1))}`,
        ratio: `V8's helpers: ${pct(helpers(s2))} of the players' CPU (1 thread: ${pct(helpers(s1))})`,
      });
    }
    // The rest of the second core's share, from each thread's timeline (simulate's onTimeline): a
    // thread's time in its games, a game, against this thread's alone (what both threads playing at
    // once costs each game), and the run's time in no thread's games (a thread waiting: for its
    // games, between them, for the other's last game and its results).
    const perGame = (x: (typeof one)[number], k: number) => x.timeline.threads[k].playing / x.timeline.threads[k].games;
    const idle = (x: (typeof one)[number], k: number) => {
      const { start, end, threads } = x.timeline;
      const s = threads[k];
      return { before: s.first - start, between: s.last - s.first - s.playing, after: end - s.last, back: s.back - s.last };
    };
    const med = (xs: typeof one, f: (x: (typeof one)[number]) => number) => median(xs.map(f));
    // A thread's own figures are of the runs it played games in: one that played none has no first
    // game or last (its span's 0s) and no time a game, and says so rather than a median of those.
    const playedIn = (xs: typeof one, k: number) => xs.filter((x) => x.timeline.threads[k].games > 0);
    const runsOf = (played: typeof one, xs: typeof one) => (played.length < xs.length ? ` (${played.length} of ${xs.length} runs)` : '');
    const ofPlayed = (xs: typeof one, k: number, f: (x: (typeof one)[number]) => number, digits: number) => {
      const played = playedIn(xs, k);
      return played.length ? `${med(played, f).toFixed(digits)}${runsOf(played, xs)}` : 'no game';
    };
    const gaps = (k: number) => (['before', 'between', 'after'] as const).map((g) => ofPlayed(two, k, (x) => idle(x, k)[g], 1)).join(' · ');
    rows.push({
      figure: `${players} players, 2 threads: ms a game in its games, this thread · the worker`,
      value: `${ofPlayed(two, 0, (x) => perGame(x, 0), 2)} · ${ofPlayed(two, 1, (x) => perGame(x, 1), 2)}`,
      ratio: `1 thread: ${ofPlayed(one, 0, (x) => perGame(x, 0), 2)} (between games ${ofPlayed(one, 0, (x) => idle(x, 0).between, 1)} ms)`,
    });
    // The same per game in CPU time, each thread's own (bench/threadCpu.ts), which the other processes of a busy machine leave as it is.
    const cpuPerGame = (x: (typeof one)[number], k: number) => (k === 0 ? x.split!.main : (x.split!.workers[k - 1] ?? 0)) / x.timeline.threads[k].games;
    if (s1.length && s2.length) {
      rows.push({
        figure: `${players} players, 2 threads: CPU-ms a game, this thread · the worker`,
        value: `${ofPlayed(two, 0, (x) => cpuPerGame(x, 0), 2)} · ${ofPlayed(two, 1, (x) => cpuPerGame(x, 1), 2)}`,
        ratio: `1 thread: ${ofPlayed(one, 0, (x) => cpuPerGame(x, 0), 2)}`,
      });
    }
    // The same as a timeline, ms from the call to simulate(): when each thread began its first game and
    // ended its last, and when this thread had every game (the run's end, less sorting them).
    const at = (f: (x: (typeof one)[number]) => number) => med(two, (x) => f(x) - x.timeline.start).toFixed(1);
    const span = (k: number) => {
      const played = playedIn(two, k);
      const from = (f: (x: (typeof one)[number]) => number) => med(played, (x) => f(x) - x.timeline.start).toFixed(1);
      return played.length ? `${from((x) => x.timeline.threads[k].first)}–${from((x) => x.timeline.threads[k].last)}${runsOf(played, two)}` : 'no game';
    };
    rows.push({
      figure: `${players} players, 2 threads: timeline, ms from the call, this thread | the worker (first game begun – last ended)`,
      value: `${span(0)} | ${span(1)}`,
      ratio: `every game back at ${at((x) => Math.max(...x.timeline.threads.map((s) => s.back)))}, the run's end ${at((x) => x.timeline.end)}`,
    });
    rows.push({
      figure: `${players} players, 2 threads: ms in no game, this thread | the worker (before · between · after)`,
      value: `${gaps(0)} | ${gaps(1)}`,
      ratio: `${pct(med(two, (x) => x.timeline.threads.reduce((a, s) => a + (x.timeline.end - x.timeline.start - s.playing), 0) / (x.timeline.threads.length * (x.timeline.end - x.timeline.start))))} of the run; results back ${ofPlayed(two, 1, (x) => idle(x, 1).back, 1)} ms after the worker's last game, ${ofPlayed(two, 1, (x) => x.timeline.threads[1].games - x.timeline.threads[1].early, 0)} of its games copied over after this thread's last`,
    });
  }

  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // What the states of a game hold on to: the heap with them kept, less the heap once they are
  // dropped (a heap before and after playing would count the runtime's one-time allocations).
  const settled = () => {
    for (let i = 0; i < 4; i++) gc();
    return process.memoryUsage().heapUsed;
  };
  const pack = packOf(readPackFolder(DEFAULT_PACK));
  const players = 4;
  const pick = new RandomPicker(1);
  let states: GameState[] = [newGame(pack, { players, seed: 1 })];
  while (!states[states.length - 1].over) {
    const st = states[states.length - 1];
    const legal = legalChoices(st, { labels: false });
    states.push((apply(st, legal[pick.index(legal.length)]) as { state: GameState }).state);
  }
  const count = states.length;
  const json = states.reduce((s, st) => s + JSON.stringify(st).length, 0) / count;
  const kept = settled();
  states = [];
  const heap = (kept - settled()) / count;
  rows.push({ figure: `memory per state (${players} players, the ${count} states of a game kept)`, value: `${(heap / 1024).toFixed(1)} KB heap`, ratio: `${(json / 1024).toFixed(1)} KB as JSON` });
}

// ─── Small World, this engine against issue #12's "today" ───
if (runs('baseline')) {
  const games = Number(process.env.BASELINE_GAMES ?? 30);
  const rounds = Number(process.env.BASELINE_ROUNDS ?? 5);
  section(`Small World, 4 players, random bots, one thread: this engine and pack against ${BASELINE_REV}'s, each in its own process, ${games} games a batch, median of ${rounds} interleaved batches; load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`);
  const b = await raceBaseline({ games, rounds, warmMs: 5000 });
  if ('skip' in b) console.log(`skipped: ${b.skip}`);
  else {
    console.log(`${BASELINE_REV} from ${b.dir} (removed since), on ${b.packages}`);
    const row = (f: typeof b.then, how: string) => ({
      figure: `${f.name} on its own pack: ${how} (${f.choicesPerGame.toFixed(0)} choices a game${f.unfinished ? `, ${f.unfinished} unfinished` : ''})`,
      value: perS(f.cpu, 'games'),
      ratio: `${perS(f.wall, 'games')} wall`,
    });
    rows.push(row(b.then, 'simulate(), newGame/legalChoices/apply, a state copied a choice'));
    rows.push(row(b.now, 'simulate(), playout mode, the state changed in place'));
    rows.push({ figure: `this engine ÷ ${BASELINE_REV}'s, games a CPU-second (load average after: ${loadavg()[0].toFixed(2)})`, value: times(b.now.cpu / b.then.cpu), ratio: `${times(b.now.wall / b.then.wall)} in wall time`, target: '≥ 7×' });
  }
}
