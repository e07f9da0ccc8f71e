/**
 * Export and import of packs as zip files.
 *
 * fflate: a small (about 8 kB), dependency-free and actively maintained library that writes and reads
 * zip files and raw deflate streams synchronously in the browser; the share link uses its deflate too,
 * so one library covers both needs without a WebAssembly or Node dependency.
 */
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { documentOf, MAX_FILE_BYTES, MAX_PACK_BYTES, megabytes } from '../../compiler/load.ts';
import { LineIndex } from '../../compiler/source.ts';
import { MAX_FILES } from './loadable.ts';
import { packFiles } from './pack-files.ts';

/**
 * The largest zip read, and the most it may unpack to: a guard against zip bombs and mistaken
 * uploads. fflate unpacks each file into a buffer of the size its header declares, so a header
 * that lies about its size gets no more room than it declared.
 */
const MAX_ZIP_BYTES = 20 * 1024 * 1024;
const MAX_TOTAL_BYTES = MAX_PACK_BYTES;

export function exportZip(id: string, files: Record<string, string>): Uint8Array {
  const tree: Zippable = {};
  for (const [path, text] of Object.entries(files)) tree[`${id}/${path}`] = strToU8(text);
  return zipSync(tree, { level: 6 });
}

export type ImportResult = { ok: true; id: string; files: Record<string, string>; ignored: string[] } | { ok: false; reason: string };

/** Read a zip made by `exportZip` or by hand: the pack's files at the top or in one folder. */
export function importZip(bytes: Uint8Array): ImportResult {
  if (bytes.length > MAX_ZIP_BYTES) return { ok: false, reason: `the zip is ${megabytes(bytes.length)}, too large to be a pack (at most ${megabytes(MAX_ZIP_BYTES)})` };
  let entries: Record<string, Uint8Array>;
  let total = 0;
  let count = 0;
  let tooBig: string | undefined;
  try {
    entries = unzipSync(bytes, {
      filter: (f) => {
        count++;
        total += f.originalSize;
        if (f.originalSize > MAX_FILE_BYTES && /\.ya?ml$/i.test(f.name)) tooBig ??= `\`${f.name}\` unpacks to ${megabytes(f.originalSize)}, more than a pack file may be (${megabytes(MAX_FILE_BYTES)})`;
        if (total > MAX_TOTAL_BYTES || count > MAX_FILES) tooBig ??= `the zip is too large to be a pack (more than ${MAX_FILES} files or ${megabytes(MAX_TOTAL_BYTES)} unpacked)`;
        return !tooBig && !f.name.endsWith('/');
      },
    });
  } catch (e) {
    return { ok: false, reason: `this is not a readable zip file (${(e as Error).message})` };
  }
  if (tooBig) return { ok: false, reason: tooBig };
  const names = Object.keys(entries).map((n) => n.replace(/\\/g, '/'));
  if (!names.length) return { ok: false, reason: 'the zip is empty' };
  for (const n of names) {
    if (n.startsWith('/') || n.split('/').includes('..')) return { ok: false, reason: `the zip holds a file outside its folder (\`${n}\`), which a pack never does` };
  }
  // The pack folder: the zip's top, or its single top-level folder.
  let prefix = '';
  if (!names.includes('pack.yaml')) {
    const tops = new Set(names.map((n) => n.split('/')[0]));
    const top = [...tops][0];
    if (tops.size === 1 && names.includes(`${top}/pack.yaml`)) prefix = `${top}/`;
    else return { ok: false, reason: 'the zip has no pack.yaml at its top or in a single folder, so it is not a pack' };
  }
  const files = packFiles();
  const ignored: string[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const [rawName, data] of Object.entries(entries)) {
    const name = rawName.replace(/\\/g, '/');
    if (!name.startsWith(prefix)) {
      ignored.push(name);
      continue;
    }
    const path = name.slice(prefix.length);
    if (!/\.ya?ml$/i.test(path) || path.split('/').some((s) => s.startsWith('.'))) {
      ignored.push(name);
      continue;
    }
    try {
      files[path] = decoder.decode(data);
    } catch {
      return { ok: false, reason: `\`${path}\` is not UTF-8 text, so it cannot be a pack file` };
    }
  }
  let manifest: unknown;
  try {
    // The compiler's reading: the library's own check of keys written twice is quadratic in a mapping's keys.
    const doc = documentOf(files['pack.yaml']);
    // The first in the file: a key written twice comes after the library's own errors in the list.
    const first = [...doc.errors].sort((a, b) => a.pos[0] - b.pos[0])[0];
    if (first) {
      const { line, column } = new LineIndex(files['pack.yaml']).position(first.pos[0]);
      return { ok: false, reason: `pack.yaml is not valid YAML: ${first.message.split('\n')[0]} at line ${line}, column ${column}` };
    }
    manifest = doc.toJS();
  } catch (e) {
    return { ok: false, reason: `pack.yaml is not valid YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  const id = manifest && typeof manifest === 'object' ? (manifest as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || !id.trim()) return { ok: false, reason: 'pack.yaml has no `id`, so this is not a pack manifest' };
  return { ok: true, id, files, ignored };
}

export { strFromU8 };
