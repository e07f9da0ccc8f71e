/**
 * One side of bench/engine.ts's A/B, in a process of its own: the engine of one checkout, which
 * plays the same batch of games each time it is asked and answers the CPU time the batch took.
 * Both sides are this script in a child process started alike (the same Node and flags, this
 * tree's bench code), differing only in the folder they load the engine from, so neither is the
 * process that loaded its code first, shares its JIT feedback or its heap with the other, or pays
 * for the other's garbage; and while one side plays, the other waits for its next turn.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SourceFile } from '../compiler/index.ts';
import { digest, loadEngine, packOf, play, settingsFromEnv } from './checkoutEngine.ts';
import { timed } from './measure.ts';

/** What a side is told: first the pack and how many games a batch, then `round` for each batch. */
type Ask = { files: SourceFile[]; games: number } | { round: true };
/** What it answers: once ready, the choices and digest of a batch; then each batch's CPU milliseconds. */
type Answer = { choices: number; digest: string } | { ms: number } | { error: string };

export interface Side {
  choices: number;
  digest: string;
  /** CPU milliseconds of one batch of games. */
  round(): Promise<number>;
  close(): void;
}

/** Starts the side of the checkout in folder `tree`; resolves once it has compiled the pack and played a batch twice. */
export function startSide(tree: string, files: SourceFile[], games: number): Promise<Side> {
  const child = fork(fileURLToPath(import.meta.url), [tree], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (m: Ask) =>
    new Promise<Answer>((done, fail) => {
      const failed = (code: number | null) => fail(new Error(`the side of ${tree} ended (exit code ${code})`));
      child.once('exit', failed);
      child.once('message', (a: Answer) => {
        child.off('exit', failed);
        if ('error' in a) fail(new Error(`the side of ${tree}: ${a.error}`));
        else done(a);
      });
      child.send(m);
    });
  return ask({ files, games }).then((a) => {
    if (!('digest' in a)) throw new Error(`the side of ${tree} answered out of turn`);
    return {
      choices: a.choices,
      digest: a.digest,
      round: async () => {
        const r = await ask({ round: true });
        if (!('ms' in r)) throw new Error(`the side of ${tree} answered out of turn`);
        return r.ms;
      },
      close: () => child.disconnect(),
    };
  });
}

function serve(tree: string): void {
  // Listening before the engine has loaded: a message that comes while nobody listens is lost.
  const loading = loadEngine(tree);
  const settings = settingsFromEnv();
  let batch: (() => void) | undefined;
  const answer = (a: Answer) => process.send!(a);
  process.on('message', async (m: Ask) => {
    try {
      if ('files' in m) {
        const engine = await loading;
        const pack = packOf(engine, m.files);
        const choices = play(engine, pack, settings, 1, m.games);
        const d = digest(engine, pack, settings, m.games);
        batch = () => void play(engine, pack, settings, 1, m.games);
        answer({ choices, digest: d });
      } else if (batch) {
        answer({ ms: timed(batch) });
      } else {
        answer({ error: 'asked for a round before the pack' });
      }
    } catch (e) {
      answer({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  });
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) serve(process.argv[2]);
