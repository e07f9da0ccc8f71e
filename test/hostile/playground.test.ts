/**
 * The playground's doors for strangers' content: share links and zips. Links are capped before and
 * after inflating and read as strictly as a pack; a game that cannot be replayed is left out with a
 * notice; zips are capped as they arrive and as they unpack. The texts the page posts to its engine
 * worker (only those the worker lacks) never leave the worker with a text it was not sent.
 */
import { constants, createDeflateRaw } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeShare, encodeShare, MAX_INFLATED_BYTES, type SharePayload } from '../../playground/src/share.ts';
import { importZip } from '../../playground/src/zip.ts';
import { HeldFiles, SentFiles, type FileList } from '../../playground/src/file-sync.ts';
import { PostedGames, ReceivedGames } from '../../playground/src/game-sync.ts';
import { TextNames } from '../../playground/src/text-names.ts';
import type { PlayResponse } from '../../playground/src/protocol.ts';
import { compile } from '../../compiler/index.ts';
import { readPackFolder } from '../../compiler/packFolder.ts';
import { apply, legalChoices, newGame } from '../../runtime/index.ts';
import { budget, MANIFEST } from './harness.ts';


function toBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A link whose payload inflates to `megabytes` of spaces, deflated by zlib piece by piece (never held whole). */
async function bombLink(megabytes: number): Promise<string> {
  const parts: Buffer[] = [];
  const z = createDeflateRaw({ level: 9, strategy: constants.Z_RLE });
  z.on('data', (c: Buffer) => parts.push(c));
  const mb = Buffer.alloc(1024 * 1024, 32);
  for (let i = 0; i < megabytes; i++) z.write(mb);
  z.end();
  await new Promise((done) => z.on('end', done));
  return `#share=${toBase64Url(Buffer.concat(parts))}`;
}

const files = { 'pack.yaml': MANIFEST(), 'game.yaml': 'kinds: {}\n' };
const session = { players: 2, seed: 7, seats: ['human', 'bot'], choices: ['pass'], madeBy: ['p1'] };

describe('share links', () => {
  it('a link of a few hundred kB that inflates to 300 MB is refused at the cap', budget, async () => {
    const link = await bombLink(300);
    expect(link.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().rss;
    const r = decodeShare(link);
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/more than a pack may \(over 2\.0 MB unpacked\)/) });
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('a 14 kB link holding 10 MB of files is refused, so it never fills the browser\'s storage', budget, () => {
    const link = encodeShare({ v: 1, files: { ...files, 'cards.yaml': `# ${'x'.repeat(10 * 1024 * 1024)}\n` } });
    expect(link.length).toBeLessThan(20 * 1024);
    expect(decodeShare(link)).toEqual({ ok: false, reason: expect.stringMatching(/unpacked/) });
    expect(MAX_INFLATED_BYTES).toBeLessThan(5 * 1024 * 1024);
  });

  it('a link longer than a megabyte is not even inflated', budget, () => {
    expect(decodeShare(`#share=${'A'.repeat(1024 * 1024 + 1)}`)).toEqual({ ok: false, reason: expect.stringMatching(/too long/) });
  });

  it('`seats: null` in its game: the pack opens, the game is left out with a notice', budget, () => {
    const r = decodeShare(encodeShare({ v: 1, files, session: { ...session, seats: null } } as unknown as SharePayload));
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.payload.session).toBeUndefined();
    expect(r.payload.files).toEqual(files);
    expect(r.notice).toMatch(/the game in the share link was left out \(its seats are not one human or bot per player\)/);
  });

  for (const [what, bad] of [
    ['players: 50000000', { ...session, players: 50_000_000 }],
    ['a seed that is no number', { ...session, seed: 'x' }],
    ['choices that are not text', { ...session, choices: [{}], madeBy: ['p1'] }],
    ['more makers than moves', { ...session, madeBy: ['p1', 'p2'] }],
  ] as const) {
    it(`a game with ${what} is left out`, budget, () => {
      const r = decodeShare(encodeShare({ v: 1, files, session: bad } as unknown as SharePayload));
      expect(r?.ok && r.payload.session === undefined && r.notice).toBeTruthy();
    });
  }

  for (const [what, bad] of [
    ['a path out of the pack', { ...files, '../../etc/x.yaml': 'a: 1' }],
    ['an absolute path', { ...files, '/etc/x.yaml': 'a: 1' }],
    ['a file that is no YAML', { ...files, 'index.html': '<script>' }],
    ['a key JavaScript reserves', JSON.parse('{"__proto__": "x", "pack.yaml": "id: t"}')],
    ['a file that is not text', { ...files, 'x.yaml': 7 }],
  ] as const) {
    it(`files with ${what} are refused`, budget, () => {
      const r = decodeShare(encodeShare({ v: 1, files: bad } as unknown as SharePayload));
      expect(r?.ok).toBe(false);
    });
  }

  it('a good link comes back as it went', budget, () => {
    const payload: SharePayload = { v: 1, base: 'content/smallworld-wow', files, deleted: ['old.yaml'], session: { ...session, seats: ['human', 'bot'] } };
    expect(decodeShare(encodeShare(payload))).toEqual({ ok: true, payload });
  });
});

describe('zips', () => {
  it('a zip larger than 20 MB is not opened', budget, () => {
    expect(importZip(new Uint8Array(20 * 1024 * 1024 + 1))).toEqual({ ok: false, reason: expect.stringMatching(/too large to be a pack/) });
  });

  it('a zip bomb (one file of 30 MB of spaces) is refused by the size it declares', budget, () => {
    const zip = zipSync({ 'pack.yaml': strToU8(MANIFEST()), 'cards.yaml': new Uint8Array(30 * 1024 * 1024).fill(32) }, { level: 6 });
    expect(zip.length).toBeLessThan(1024 * 1024);
    expect(importZip(zip)).toEqual({ ok: false, reason: expect.stringMatching(/cards\.yaml` unpacks to 30\.0 MB/) });
  });

  it('a zip whose header lies about a file\'s size unpacks no more than it declared', budget, () => {
    const zip = zipSync({ 'pack.yaml': strToU8(MANIFEST()), 'cards.yaml': new Uint8Array(30 * 1024 * 1024).fill(32) }, { level: 6 });
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    // Rewrite the uncompressed size of `cards.yaml` in the central directory to 100 bytes.
    for (let at = zip.length - 22; at >= 0; at--) {
      if (view.getUint32(at, true) !== 0x02014b50) continue;
      const nameLength = view.getUint16(at + 28, true);
      const name = Buffer.from(zip.subarray(at + 46, at + 46 + nameLength)).toString();
      if (name === 'cards.yaml') view.setUint32(at + 24, 100, true);
    }
    const r = importZip(zip);
    if (r.ok) expect(r.files['cards.yaml'].length).toBeLessThanOrEqual(100);
    else expect(r.reason).toBeTruthy();
  });

  it('a zip whose pack.yaml holds 40,000 keys, its id written again after them, is refused at that key', budget, () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `k${i}: ${i}\n`).join('');
    const r = importZip(zipSync({ 'pack.yaml': strToU8(MANIFEST('many', `${keys}id: again\n`)) }));
    expect(r).toEqual({ ok: false, reason: 'pack.yaml is not valid YAML: Map keys must be unique at line 40006, column 1' });
  });

  it('a zip whose pack.yaml writes a key twice before a syntax error is refused at the first in the file', budget, () => {
    const r = importZip(zipSync({ 'pack.yaml': strToU8('id: a\nid: b\nname: [unclosed\n') }));
    expect(r).toEqual({ ok: false, reason: 'pack.yaml is not valid YAML: Map keys must be unique at line 2, column 1' });
  });

  it('a zip whose pack.yaml has keys nested 1,000 deep (`? ? … x`) is refused at the outermost, not read for minutes', budget, () => {
    const r = importZip(zipSync({ 'pack.yaml': strToU8(`id: a\n${'? '.repeat(1000)}x\n`) }));
    expect(r).toEqual({ ok: false, reason: 'pack.yaml is not valid YAML: a list or mapping is written here as a key at line 2, column 3' });
  });

  it('a zip\'s files are held in a map no file name reaches Object\'s members through', budget, () => {
    const r = importZip(zipSync({ 'pack.yaml': strToU8(MANIFEST()) }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.getPrototypeOf(r.files)).toBeNull();
    expect('constructor' in r.files).toBe(false);
    expect(Object.keys(r.files)).toEqual(['pack.yaml']);
  });
});

describe('texts posted to the engine worker', () => {
  const lists = (pack: Record<string, string>, scenarios: Record<string, string> = {}): FileList[] => [
    { name: 'pack', files: Object.entries(pack).map(([path, text]) => ({ path, text })) },
    { name: 'scenarios', files: Object.entries(scenarios).map(([path, text]) => ({ path, text })) },
  ];

  it('carry only the changed file, and the worker reads the whole pack', budget, () => {
    const page = new SentFiles();
    const worker = new HeldFiles();
    const first = page.post(lists(files, { 'scenarios/a.yaml': 'a' }));
    expect(first.texts.map((t) => t.path)).toEqual(['pack.yaml', 'game.yaml', 'scenarios/a.yaml']);
    expect(worker.take(first)).toEqual(lists(files, { 'scenarios/a.yaml': 'a' }));
    const edited = { ...files, 'game.yaml': 'kinds: { a: {} }\n' };
    const second = page.post(lists(edited, { 'scenarios/a.yaml': 'a' }));
    expect(second.texts).toEqual([{ list: 0, path: 'game.yaml', text: 'kinds: { a: {} }\n' }]);
    expect(worker.take(second)).toEqual(lists(edited, { 'scenarios/a.yaml': 'a' }));
  });

  it('a file deleted and made again is sent again; a new worker is sent everything', budget, () => {
    const page = new SentFiles();
    const worker = new HeldFiles();
    worker.take(page.post(lists(files)));
    worker.take(page.post(lists({ 'pack.yaml': files['pack.yaml'] })));
    const back = page.post(lists(files));
    expect(back.texts.map((t) => t.path)).toEqual(['game.yaml']);
    expect(worker.take(back)).toEqual(lists(files));
    page.forget();
    expect(new HeldFiles().take(page.post(lists(files)))).toEqual(lists(files));
  });

  it('a compile the worker skips still leaves it its texts (each is taken in as it arrives)', budget, () => {
    const page = new SentFiles();
    const worker = new HeldFiles();
    const a = page.post(lists(files));
    const b = page.post(lists({ ...files, 'game.yaml': 'kinds: { b: {} }\n' }));
    const c = page.post(lists({ ...files, 'game.yaml': 'kinds: { b: {} }\n', 'extra.yaml': 'x: 1\n' }));
    worker.take(a);
    worker.take(b);
    expect(worker.take(c)[0].files.map((f) => f.text)).toEqual([files['pack.yaml'], 'kinds: { b: {} }\n', 'x: 1\n']);
  });

  it('a text the worker was never sent is an error naming the file, not an empty file compiled', budget, () => {
    const page = new SentFiles();
    page.post(lists(files));
    expect(() => new HeldFiles().take(page.post(lists(files)))).toThrow(/pack game\.yaml|pack pack\.yaml/);
  });
});

describe('games posted to the page', () => {
  /** Tic-tac-toe after `moves` of its first legal choices, answered as the worker answers (digests as given). */
  function answer(moves: number, digest: string | undefined, id = 1): PlayResponse {
    const { pack } = compile(readPackFolder('test/packs/tictactoe'));
    let state = newGame(pack!, { players: 2, seed: 1 });
    for (let i = 0; i < moves; i++) state = apply(state, legalChoices(state)[0].id).state;
    return { type: 'played', id, version: 1, state, view: state, legal: legalChoices(state), applied: moves, digest };
  }
  /** Across to the page as postMessage carries it. */
  const across = (worker: PostedGames, page: ReceivedGames, a: PlayResponse) => page.take(structuredClone(worker.post(a)));

  it('an answer that draws as the last is posted without its game, and the page draws the one it has', budget, () => {
    const worker = new PostedGames();
    const page = new ReceivedGames();
    const first = across(worker, page, answer(3, 'd3'));
    expect(first.state?.choices).toHaveLength(3);
    const posted = worker.post(answer(3, 'd3', 2));
    expect(posted.same).toBe(true);
    expect(posted.state).toBeUndefined();
    expect(posted.legal).toBeUndefined();
    const again = page.take(structuredClone(posted));
    expect(again.id).toBe(2);
    expect(again.state).toBe(first.state);
    expect(again.legal).toBe(first.legal);
    expect(again).toEqual({ ...structuredClone(answer(3, 'd3', 2)), same: undefined });
  });

  it('another game, or one after an answer without a digest (an error), comes whole', budget, () => {
    const worker = new PostedGames();
    const page = new ReceivedGames();
    across(worker, page, answer(2, 'd2'));
    const other = across(worker, page, answer(4, 'd4'));
    expect(other.state?.choices).toHaveLength(4);
    across(worker, page, { type: 'played', id: 3, version: 1, legal: [], applied: 0, error: 'superseded' });
    const back = worker.post(answer(4, 'd4'));
    expect(back.same).toBe(true);
    expect(page.take(structuredClone(back)).state?.choices).toHaveLength(4);
  });

  it('a page that never got the game it is told to draw says so instead of drawing nothing', budget, () => {
    const worker = new PostedGames();
    worker.post(answer(1, 'd1'));
    const page = new ReceivedGames();
    const r = page.take(structuredClone(worker.post(answer(1, 'd1'))));
    expect(r.state).toBeUndefined();
    expect(r.error).toMatch(/not sent/);
  });
});

describe('names of the texts the worker posts', () => {
  const state = (moves: number) => {
    const { pack } = compile(readPackFolder('test/packs/tictactoe'));
    let s = newGame(pack!, { players: 2, seed: 1 });
    for (let i = 0; i < moves; i++) s = apply(s, legalChoices(s)[0].id).state;
    return JSON.stringify(s);
  };

  it('a game drawn as the last keeps its name; another game, or one named again after another, gets a new one', budget, () => {
    const names = new TextNames();
    const [a, b] = [state(2), state(3)];
    const first = names.of(a);
    expect(names.of(state(2))).toBe(first);
    const other = names.of(b);
    expect(other).not.toBe(first);
    const again = names.of(a);
    expect(again).not.toBe(first);
    expect(again).not.toBe(other);
  });

  it('two namers (the summaries and the games) never give the same name', budget, () => {
    const games = new TextNames();
    const summaries = new TextNames();
    expect(games.of('x')).not.toBe(summaries.of('x'));
  });
});
