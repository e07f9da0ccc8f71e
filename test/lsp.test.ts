/**
 * `rulebook lsp` as an editor meets it: a language client talks to the real server in a child
 * process over its standard input and output, on a copy of a real pack.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ReferencesRequest,
  RenameRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CodeAction,
  type Diagnostic,
  type Location,
  type MarkupContent,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const root = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'rulebook-lsp-'));
const pack = join(dir, 'tiny');
const gameFile = join(pack, 'game.yaml');
const uri = pathToFileURL(gameFile).href;
const original = readFileSync(join(root, 'test/packs/tiny/game.yaml'), 'utf8');

let server: ChildProcess;
let client: ProtocolConnection;
/** Every diagnostics notification for the file, in order; a test waits for the one it needs. */
const published: PublishDiagnosticsParams[] = [];
const waiters: Array<() => void> = [];

function diagnosticsWhere(ok: (d: Diagnostic[]) => boolean, after: number): Promise<Diagnostic[]> {
  return new Promise((done) => {
    const look = () => {
      const hit = published.slice(after).find((p) => p.uri === uri && ok(p.diagnostics));
      if (!hit) return false;
      done(hit.diagnostics);
      return true;
    };
    if (!look()) waiters.push(() => void look());
  });
}

let version = 1;
let doc = TextDocument.create(uri, 'yaml', version, original);
async function edit(text: string) {
  doc = TextDocument.create(uri, 'yaml', ++version, text);
  await client.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
}
const at = (needle: string, delta = 0) => doc.positionAt(doc.getText().indexOf(needle) + delta);

beforeAll(async () => {
  cpSync(join(root, 'test/packs/tiny'), pack, { recursive: true });
  server = spawn(process.execPath, [join(root, 'bin/rulebook.mjs'), 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  client = createProtocolConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
  client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    for (const w of waiters.splice(0)) w();
  });
  client.listen();
  const init = await client.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {}, workspaceFolders: null });
  expect(init.capabilities.codeActionProvider).toBeTruthy();
  await client.sendNotification(InitializedNotification.type, {});
  await client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version, text: original } });
});

afterAll(async () => {
  await client.sendRequest(ShutdownRequest.type);
  await client.sendNotification(ExitNotification.type);
  await new Promise((done) => (server.exitCode !== null ? done(null) : server.once('exit', done)));
  client.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('rulebook lsp', () => {
  it('underlines a typo where it is, with the compiler’s code and hint, and its quick fix clears it', async () => {
    const before = published.length;
    await edit(original.replace('s.owner = me', 's.ownr = me'));
    const [typo] = await diagnosticsWhere((d) => d.some((x) => x.code === 'RB0523'), before);
    const line = doc.getText().split('\n').findIndex((l) => l.includes('s.ownr = me'));
    const column = doc.getText().split('\n')[line].indexOf('ownr');
    expect(typo).toMatchObject({ code: 'RB0523', source: 'rulebook', severity: 1, range: { start: { line, character: column }, end: { line, character: column + 4 } } });
    expect(typo.message).toContain('a space has no field `ownr`');
    expect(typo.message).toContain('did you mean `owner`?');

    const actions = (await client.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: typo.range, context: { diagnostics: [typo] } })) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual(['Replace with `owner`']);
    const edits = actions[0].edit!.changes![uri];
    const fixed = TextDocument.applyEdits(doc, edits);
    expect(fixed).toBe(original);

    const beforeFix = published.length;
    await edit(fixed);
    expect(await diagnosticsWhere((d) => d.length === 0, beforeFix)).toEqual([]);
  });

  it('hovers a pipeline with its signature and goes to its declaration', async () => {
    await edit(original);
    const use = at('claimValue(s)\n', 2);
    const hover = await client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: use });
    expect((hover!.contents as MarkupContent).value).toContain('claimValue');
    expect((hover!.contents as MarkupContent).value).toContain('number');

    const defs = (await client.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: use })) as Location[];
    const declared = at('pipeline claimValue', 'pipeline '.length);
    expect(defs).toEqual([{ uri, range: { start: declared, end: { line: declared.line, character: declared.character + 'claimValue'.length } } }]);
  });

  it('finds every use of a name, and renames them all at once', async () => {
    await edit(original);
    const position = at('emit claimed', 'emit '.length + 1);
    const refs = (await client.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } })) as Location[];
    expect(refs.map((r) => doc.getText(r.range))).toEqual(['claimed', 'claimed']);
    const rename = (await client.sendRequest(RenameRequest.type, { textDocument: { uri }, position, newName: 'taken' })) as WorkspaceEdit;
    const renamed = TextDocument.applyEdits(doc, rename.changes![uri]);
    expect(renamed).toContain('event taken(s: space)');
    expect(renamed).toContain('emit taken(s)');
    expect(renamed).not.toContain('claimed');
  });
});
