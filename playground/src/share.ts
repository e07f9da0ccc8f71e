/**
 * Share links: the pack's edits, the game's options and its choices, deflated (fflate, see zip.ts)
 * and base64url-encoded into the URL hash, so a link reproduces exactly what its author saw.
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
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

export type DecodeResult = { ok: true; payload: SharePayload } | { ok: false; reason: string } | undefined;

/** Reads a share hash; `undefined` when the hash is not a share link. */
export function decodeShare(hash: string): DecodeResult {
  if (!hash.startsWith(PREFIX)) return undefined;
  try {
    const p = JSON.parse(strFromU8(inflateSync(fromBase64Url(hash.slice(PREFIX.length))))) as SharePayload;
    if (p.v !== 1 || typeof p.files !== 'object' || !p.files) return { ok: false, reason: 'the share link is from another version of the playground' };
    for (const [k, v] of Object.entries(p.files)) if (typeof k !== 'string' || typeof v !== 'string') return { ok: false, reason: 'the share link holds a file that is not text' };
    return { ok: true, payload: p };
  } catch (e) {
    return { ok: false, reason: `the share link is damaged (${(e as Error).message})` };
  }
}
