/** `rulebook ARGS` run in this process, with what it printed: the CLI as a test sees it. */
import { main } from '../../cli/main.ts';
import type { Io } from '../../cli/io.ts';

/** `input`: the lines typed in, one a prompt; then the input ends. */
export async function rulebook(args: string[], input: string[] = []): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const lines = [...input];
  const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), readLine: async () => lines.shift() };
  const code = await main(args, io);
  return { code, out, err };
}
