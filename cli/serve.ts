import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packFoldersOf } from './packs.ts';
import type { Io } from './io.ts';

const config = fileURLToPath(new URL('../playground/vite.config.ts', import.meta.url));

/**
 * `rulebook serve [PATH]`: the playground, with the packs of a folder of one's own (a pack, or a
 * folder of packs) listed first and opened. The folder is read-only to the server and confined
 * (see `playground/served-packs.ts`); edits are kept in the browser until saved or exported.
 * Runs until interrupted.
 */
export async function serve(path: string | undefined, opts: { port: number; host?: string }, io: Io): Promise<number> {
  if (path !== undefined) {
    const packs = packFoldersOf([path]);
    process.env.RULEBOOK_PACKS = resolve(path);
    io.out(`Serving ${packs.length} pack${packs.length === 1 ? '' : 's'} from ${path} (read-only)\n`);
  }
  // Loaded only here: the dev server is not worth loading for the other commands.
  const { createServer } = await import('vite');
  const server = await createServer({ configFile: config, server: { port: opts.port, host: opts.host ?? 'localhost' }, logLevel: 'warn' });
  await server.listen();
  for (const url of server.resolvedUrls?.local ?? []) io.out(`The playground is at ${url}\n`);
  io.out('Press Ctrl+C to stop.\n');
  await new Promise<void>((done) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, done);
  });
  await server.close();
  return 0;
}
