import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { serve } from '../lsp/server.ts';

/**
 * `rulebook lsp`: the language server on standard input and output. It owns standard output (the
 * protocol's frames), so it writes nothing else there. Resolves when the client closes the stream.
 */
export function lsp(): Promise<number> {
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  const closed = new Promise<number>((done) => connection.onExit(() => done(0)));
  serve(connection);
  return closed;
}
