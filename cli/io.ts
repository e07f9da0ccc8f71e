import { createInterface } from 'node:readline';

/** Where the CLI writes and reads; tests pass their own to capture output and feed input. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** The next line of input, or undefined at its end. */
  readLine(): Promise<string | undefined>;
  /** A terminal to draw progress bars on, when standard error is one. */
  terminal?: NodeJS.WriteStream;
}

/** Standard output, standard error and standard input. */
export function processIo(): Io {
  let lines: AsyncIterator<string> | undefined;
  return {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    terminal: process.stderr.isTTY ? process.stderr : undefined,
    async readLine() {
      lines ??= createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
      const next = await lines.next();
      return next.done ? undefined : next.value;
    },
  };
}

/** A thrown usage problem: the command line itself is wrong (exit code 2). */
export class UsageError extends Error {}
