/**
 * Small World, 4 players, random bots: today's engine against the one issue #12 was filed at, in the
 * same run. Its target, "≥ 7× today's single-thread figure in the same run", names commit 4dab188
 * ("today" when the issue was filed); the issue's work starts at the next commit.
 *
 * The old engine is taken from git: `git archive` of that commit (2 MB) into a folder of the run's
 * own in the system's temporary folder, removed when the race ends or the bench is stopped (a `git
 * worktree` would register the copy in this repository's .git, which a cleaned temporary folder
 * leaves stale). It runs on this checkout's node_modules, linked, when every package of its
 * lockfile is installed here at its version (so it is for 4dab188): the copy then takes about a
 * tenth of a second (archived and unpacked in 0.03-0.12 s under load 12). Otherwise it runs on
 * packages of its own, installed by `npm ci --ignore-scripts --offline` again each run, for as long
 * as that install takes. No history (a shallow clone) or no git is a one-line skip.
 *
 * Each engine plays in a child process of its own (bench/baselinePlayer.ts), by its checkout's public
 * entry `simulate()` in one thread: 4dab188's plays each choice by newGame/legalChoices/apply,
 * copying the state at every apply and writing the log; today's in playout mode (the state changed
 * in place, no log). Each plays its own commit's content/smallworld-wow, the same seeds: the pack has
 * changed since, so the games are not the same games, and the figure is games/s of the pack as each
 * commit shipped it (choices a game are printed beside it). Both are warmed for the same CPU time
 * first, then timed batch by batch, interleaved (the order swapped each round); a figure is the
 * median of its rounds, in CPU time (what a busy machine leaves as a quiet one gives) and wall time.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BatchRequest, BatchResult } from './baselinePlayer.ts';
import { median } from './measure.ts';

export const BASELINE_REV = '4dab188';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PLAYER = fileURLToPath(new URL('./baselinePlayer.ts', import.meta.url));

function git(args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  return { ok: !r.error && r.status === 0, out: (r.stdout ?? '').trim() };
}

/** Why the packages installed here would not run the old commit as it shipped, or undefined if they would. */
function packagesDiffer(checkout: string): string | undefined {
  const lock = JSON.parse(readFileSync(join(checkout, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; optional?: boolean }> };
  for (const [path, p] of Object.entries(lock.packages)) {
    if (!path) continue;
    const installed = join(ROOT, path, 'package.json');
    // An optional package missing here is one for another platform: npm would not install it there either.
    if (!existsSync(installed) && p.optional) continue;
    const version = existsSync(installed) ? (JSON.parse(readFileSync(installed, 'utf8')) as { version?: string }).version : undefined;
    if (version !== p.version) return `${path} is ${version ?? 'not installed'} here, ${p.version} there`;
  }
  return undefined;
}

const LINKED = "this checkout's packages, linked";

/** The old commit's files with packages to run them, in a folder of their own to remove when done, or why not. */
function checkout(rev: string): { dir: string; packages: string } | { skip: string } {
  const full = git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  if (!full.ok) return { skip: `commit ${rev} is not in this clone's history (a shallow clone? \`git fetch --unshallow\`), or git is missing` };
  const tar = spawnSync('git', ['archive', '--format=tar', full.out], { cwd: ROOT, maxBuffer: 1 << 30 });
  if (tar.status !== 0) return { skip: `git archive ${rev} failed: ${tar.stderr.toString().trim()}` };
  const dir = mkdtempSync(join(tmpdir(), `rulebook-baseline-${rev}-`));
  const skip = (why: string) => {
    removeCopy(dir);
    return { skip: why };
  };
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: tar.stdout });
  if (untar.status !== 0) return skip(`unpacking ${rev} failed: ${untar.stderr.toString().trim()}`);
  const differ = packagesDiffer(dir);
  if (!differ) {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    return { dir, packages: LINKED };
  }
  const ci = spawnSync('npm', ['ci', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8' });
  if (ci.status !== 0) return skip(`its packages differ from this checkout's (${differ}) and \`npm ci --offline\` failed there`);
  return { dir, packages: `its own packages (npm ci: ${differ})` };
}

/** Removes a copy made by `checkout`; its node_modules, when linked, goes as a link (rmSync follows no link). */
function removeCopy(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** An engine's child process: plays a batch when asked, answers what it took. */
class Player {
  private readonly child: ChildProcess;
  private waiting?: { resolve: (r: BatchResult) => void; reject: (e: Error) => void };
  readonly ready: Promise<void>;
  /** Settled once the process has ended: its folder may be removed then. */
  readonly stopped: Promise<void>;

  constructor(
    readonly name: string,
    root: string,
  ) {
    // Its own tsx (the same version, as the packages are checked alike), from its own folder.
    this.child = fork(PLAYER, [root], { cwd: root, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let started: (() => void) | undefined;
    let failedToStart: ((e: Error) => void) | undefined;
    this.ready = new Promise((res, rej) => ([started, failedToStart] = [res, rej]));
    this.child.on('message', (m: BatchResult | 'ready') => {
      if (m === 'ready') started?.();
      else this.waiting?.resolve(m);
    });
    this.stopped = new Promise((res) => this.child.once('exit', () => res()));
    this.child.on('exit', (code, signal) => {
      const e = new Error(`${name}'s player stopped (${signal ?? `exit code ${code}`})`);
      failedToStart?.(e);
      this.waiting?.reject(e);
    });
  }

  play(request: BatchRequest): Promise<BatchResult> {
    return new Promise((res, rej) => {
      this.waiting = { resolve: res, reject: rej };
      this.child.send(request);
    });
  }

  stop(): void {
    this.child.kill();
  }
}

export interface BaselineOptions {
  games: number;
  rounds: number;
  /** CPU milliseconds each engine plays before anything is timed. */
  warmMs: number;
}

export interface BaselineFigure {
  name: string;
  cpu: number;
  wall: number;
  choicesPerGame: number;
  unfinished: number;
}

/** `dir`: where the old commit's copy was, removed by the time the outcome is given. */
export type BaselineOutcome = { skip: string } | { then: BaselineFigure; now: BaselineFigure; dir: string; packages: string };

/** Games a second (CPU and wall) of the old engine and today's, raced as the header says. */
export async function raceBaseline(o: BaselineOptions): Promise<BaselineOutcome> {
  const copy = checkout(BASELINE_REV);
  if ('skip' in copy) return copy;
  // Also when the bench is stopped by process.exit or an error past this function, not only when the race ends.
  const remove = () => removeCopy(copy.dir);
  process.once('exit', remove);
  const head = git(['rev-parse', '--short', 'HEAD']).out;
  const players = [new Player(BASELINE_REV, copy.dir), new Player(`HEAD ${head}`, ROOT)];
  // Ctrl-C or a kill runs no 'exit' handler: the copy is removed first, then the process ends with the code the signal's default would give (128 + its number).
  const stopped = (signal: NodeJS.Signals) => {
    for (const p of players) p.stop();
    remove();
    process.exit(128 + constants.signals[signal]);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  for (const s of signals) process.once(s, stopped);
  try {
    await Promise.all(players.map((p) => p.ready));
    const batch: BatchRequest = { games: o.games, seed: 1, players: 4 };
    // Warmed on other seeds than the timed ones, one engine at a time, the same CPU time each.
    for (const p of players) {
      let seed = 1_000_001;
      for (let spent = 0; spent < o.warmMs; seed += o.games) spent += (await p.play({ ...batch, seed })).cpuMs;
    }
    const results: BatchResult[][] = players.map(() => []);
    for (let r = 0; r < o.rounds; r++) {
      for (let i = 0; i < players.length; i++) {
        const k = (i + r) % players.length;
        results[k].push(await players[k].play(batch));
      }
    }
    const figure = (k: number): BaselineFigure => ({
      name: players[k].name,
      cpu: (o.games * 1000) / median(results[k].map((x) => x.cpuMs)),
      wall: (o.games * 1000) / median(results[k].map((x) => x.wallMs)),
      choicesPerGame: results[k][0].choices / o.games,
      unfinished: results[k][0].unfinished,
    });
    return { then: figure(0), now: figure(1), dir: copy.dir, packages: copy.packages };
  } finally {
    for (const p of players) p.stop();
    await Promise.all(players.map((p) => p.stopped));
    process.off('exit', remove);
    for (const s of signals) process.off(s, stopped);
    remove();
  }
}
