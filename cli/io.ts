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

/**
 * Content's text made safe for a terminal: control characters (ANSI and OSC escapes, carriage
 * returns, bells), C1 controls and the marks that reverse the direction of text are shown as
 * `\uXXXX` instead of acting on the terminal; inside `--json` output that is the same character
 * escaped, so the JSON stays valid and means the same. Line breaks and tabs stay. A pack's names and texts
 * reach every command's output, so every write of the CLI goes through here (see `cleanIo`).
 */
export function safeText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The same place to write, with every text made safe first. */
export function cleanIo(io: Io): Io {
  return { ...io, out: (t) => io.out(safeText(t)), err: (t) => io.err(safeText(t)) };
}

/** A thrown usage problem: the command line itself is wrong (exit code 2). */
export class UsageError extends Error {}
