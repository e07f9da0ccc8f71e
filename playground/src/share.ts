/**
 * Share links: the pack's edits, the game's options and its choices, deflated (fflate, see zip.ts)
 * and base64url-encoded into the URL hash, so a link reproduces exactly what its author saw.
 *
 * A link comes from a stranger and what it holds is saved in this browser, so it is read as
 * strictly as a pack: its length and what it inflates to are capped, every file must be a pack
 * file, and a game that does not fit the options it claims is left out with a notice.
 */
import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import { MAX_FILE_BYTES, megabytes } from '../../compiler/load.ts';
import { isPackPath, MAX_FILES, sessionProblem } from './loadable.ts';
import type { Session } from './workspace.ts';

export interface SharePayload {
  v: 1;
  /** Key of the shipped pack the files change, if any. */
  base?: string;
  /** Files that differ from the base (all files when there is no base). */
  files: Record<string, string>;
  /** Files of the base that were deleted. */
  deleted?: string[];
  session?: Session;
}

const PREFIX = '#share=';

/** The longest link read (its hash), and what it may inflate to: a few times the largest shipped pack. */
export const MAX_LINK_CHARS = 1024 * 1024;
export const MAX_INFLATED_BYTES = 2 * 1024 * 1024;

function toBase64Url(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function fromBase64Url(text: string): Uint8Array {
  const b = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}

export function encodeShare(p: SharePayload): string {
  return PREFIX + toBase64Url(deflateSync(strToU8(JSON.stringify(p)), { level: 9 }));
}

class TooLarge extends Error {}

/**
 * Inflates at most `cap` bytes. The input goes in small pieces: a piece of deflate can grow about a
 * thousand times, so no single step holds much more than a piece's worth beyond the cap.
 */
export function inflateCapped(bytes: Uint8Array, cap: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflate = new Inflate((chunk) => {
    total += chunk.length;
    if (total > cap) throw new TooLarge();
    chunks.push(chunk);
  });
  const piece = 1024;
  for (let i = 0; i < bytes.length; i += piece) inflate.push(bytes.subarray(i, i + piece), i + piece >= bytes.length);
  if (!bytes.length) inflate.push(bytes, true);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export type DecodeResult =
  | { ok: true; payload: SharePayload; /** Something left out of the link, for the reader to know. */ notice?: string }
  | { ok: false; reason: string }
  | undefined;

/** Reads a share hash; `undefined` when the hash is not a share link. */
export function decodeShare(hash: string): DecodeResult {
  if (!hash.startsWith(PREFIX)) return undefined;
  const body = hash.slice(PREFIX.length);
  if (body.length > MAX_LINK_CHARS) return { ok: false, reason: `the share link is too long to be read (${megabytes(body.length)}; at most ${megabytes(MAX_LINK_CHARS)})` };
  let raw: unknown;
  try {
    raw = JSON.parse(strFromU8(inflateCapped(fromBase64Url(body), MAX_INFLATED_BYTES)));
  } catch (e) {
    if (e instanceof TooLarge) return { ok: false, reason: `the share link holds more than a pack may (over ${megabytes(MAX_INFLATED_BYTES)} unpacked), so it was not opened` };
    return { ok: false, reason: `the share link is damaged (${(e as Error).message})` };
  }
  const p = raw as Partial<SharePayload> | null;
  if (!p || typeof p !== 'object' || p.v !== 1) return { ok: false, reason: 'the share link is from another version of the playground' };
  if (p.base !== undefined && typeof p.base !== 'string') return { ok: false, reason: 'the share link names its pack in a form the playground does not read' };
  const files = filesOf(p.files);
  if (typeof files === 'string') return { ok: false, reason: files };
  if (p.deleted !== undefined && (!Array.isArray(p.deleted) || p.deleted.length > MAX_FILES || !p.deleted.every((x) => typeof x === 'string' && isPackPath(x)))) return { ok: false, reason: 'the share link deletes something that is not a pack file' };
  const payload: SharePayload = { v: 1, files, ...(p.base !== undefined ? { base: p.base } : {}), ...(p.deleted ? { deleted: p.deleted } : {}) };
  if (p.session === undefined) return { ok: true, payload };
  const problem = sessionProblem(p.session);
  if (problem) return { ok: true, payload, notice: `the game in the share link was left out (${problem}); the pack opens at the start of a new game` };
  return { ok: true, payload: { ...payload, session: p.session as Session } };
}

/** The link's files, or why they are not a pack's. */
function filesOf(raw: unknown): Record<string, string> | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'the share link holds no files';
  const entries = Object.entries(raw);
  if (entries.length > MAX_FILES) return `the share link holds more than ${MAX_FILES} files`;
  const files: Record<string, string> = Object.create(null);
  for (const [path, text] of entries) {
    if (!isPackPath(path)) return `the share link holds \`${path.slice(0, 80)}\`, which is not a pack file (a .yaml path inside the pack)`;
    if (typeof text !== 'string') return 'the share link holds a file that is not text';
    if (text.length > MAX_FILE_BYTES) return `the share link holds \`${path}\`, larger than a pack file may be (${megabytes(MAX_FILE_BYTES)})`;
    files[path] = text;
  }
  return files;
}
