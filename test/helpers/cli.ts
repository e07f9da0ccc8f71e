/** `rulebook ARGS` run in this process, with what it printed: the CLI as a test sees it. */
import { main } from '../../cli/main.ts';
import type { Io } from '../../cli/io.ts';

export async function rulebook(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += t), err: (t) => void (err += t), readLine: async () => undefined };
  const code = await main(args, io);
  return { code, out, err };
}
