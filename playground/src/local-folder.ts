/**
 * Packs from a folder on the designer's disk: picked with the File System Access API where the
 * browser has it (so the playground can save back to the folder), or uploaded from a folder input
 * otherwise (read once; the designer exports a zip to keep edits). The folder may be one pack or a
 * folder of packs; each pack is its YAML files, read with the compiler's caps, as the command line
 * reads them: installed packages (`node_modules/`) and hidden folders are skipped.
 */
import { MAX_FILE_BYTES, MAX_PACK_BYTES, megabytes } from '../../compiler/load.ts';
import { isPackPath, MAX_FILES, packFilesProblem } from './loadable.ts';
import { packFiles } from './pack-files.ts';

/** The parts of the File System Access API used here (not yet in TypeScript's DOM library). */
interface DirectoryHandle {
  readonly kind: 'directory';
  readonly name: string;
  entries(): AsyncIterable<[string, DirectoryHandle | FileHandle]>;
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<DirectoryHandle>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<FileHandle>;
  removeEntry(name: string): Promise<void>;
  queryPermission?(options: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
  requestPermission?(options: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
}
interface FileHandle {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<File>;
  createWritable(): Promise<{ write(data: string): Promise<void>; close(): Promise<void> }>;
}
type Picker = (options?: { id?: string; mode?: 'read' | 'readwrite' }) => Promise<DirectoryHandle>;

/** A pack found in a folder: its name (its folder's), its files, and where to save it back when the browser allows. */
export interface FolderPack {
  name: string;
  files: Record<string, string>;
  handle?: DirectoryHandle;
}

export interface FolderRead {
  packs: FolderPack[];
  /** Files and folders left out, and why. */
  skipped: string[];
}

/** Does this browser let a page open a folder and write to it? */
export function canPickFolder(): boolean {
  return typeof (window as unknown as { showDirectoryPicker?: Picker }).showDirectoryPicker === 'function';
}

/** Asks the designer for a folder with the browser's picker; undefined when they cancel. */
export async function pickFolder(): Promise<FolderRead | undefined> {
  let root: DirectoryHandle;
  try {
    root = await (window as unknown as { showDirectoryPicker: Picker }).showDirectoryPicker({ id: 'rulebook-packs', mode: 'readwrite' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') return undefined;
    throw e;
  }
  const found: Array<{ path: string; file: () => Promise<File> }> = [];
  const handles = new Map<string, DirectoryHandle>([['', root]]);
  const walk = async (dir: DirectoryHandle, prefix: string) => {
    const entries: Array<[string, DirectoryHandle | FileHandle]> = [];
    for await (const entry of dir.entries()) entries.push(entry);
    entries.sort(([a], [b]) => a.localeCompare(b));
    for (const [name, h] of entries) {
      if (found.length > MAX_FILES * 4) return;
      const path = prefix ? `${prefix}/${name}` : name;
      if (h.kind === 'directory') {
        if (name === 'node_modules' || name.startsWith('.')) continue;
        handles.set(path, h);
        await walk(h, path);
      } else found.push({ path, file: () => h.getFile() });
    }
  };
  await walk(root, '');
  const read = await packsOf(root.name, found);
  for (const p of read.packs) p.handle = handles.get(p.dir);
  return { packs: read.packs.map(({ name, files, handle }) => ({ name, files, handle })), skipped: read.skipped };
}

/** The packs of a folder given to an `<input type=file webkitdirectory>`. */
export async function uploadedFolder(list: FileList): Promise<FolderRead> {
  const files = [...list];
  const root = files[0]?.webkitRelativePath.split('/')[0] ?? 'folder';
  const found = files
    .map((f) => ({ path: f.webkitRelativePath.split('/').slice(1).join('/'), file: async () => f }))
    .filter((f) => !f.path.split('/').slice(0, -1).some((d) => d === 'node_modules' || d.startsWith('.')));
  const read = await packsOf(root, found);
  return { packs: read.packs.map(({ name, files }) => ({ name, files })), skipped: read.skipped };
}

/** Groups a folder's files into packs: each YAML file belongs to the nearest folder above it with a pack.yaml. */
async function packsOf(rootName: string, found: Array<{ path: string; file: () => Promise<File> }>): Promise<{ packs: Array<FolderPack & { dir: string }>; skipped: string[] }> {
  const dirs = found
    .filter((f) => f.path === 'pack.yaml' || f.path.endsWith('/pack.yaml'))
    .map((f) => f.path.slice(0, -'pack.yaml'.length).replace(/\/$/, ''))
    .sort((a, b) => b.length - a.length);
  const skipped: string[] = [];
  const packs = new Map<string, FolderPack & { dir: string; bytes: number }>();
  for (const dir of [...dirs].reverse()) packs.set(dir, { dir, name: dir ? dir.split('/').pop()! : rootName, files: packFiles(), bytes: 0 });
  for (const f of found) {
    if (!/\.ya?ml$/.test(f.path)) continue;
    const dir = dirs.find((d) => d === '' || f.path.startsWith(`${d}/`));
    if (dir === undefined) continue;
    const pack = packs.get(dir)!;
    const path = dir ? f.path.slice(dir.length + 1) : f.path;
    if (!isPackPath(path)) {
      skipped.push(`${f.path} (not a pack file's path)`);
      continue;
    }
    const file = await f.file();
    if (file.size > MAX_FILE_BYTES) skipped.push(`${f.path} (${megabytes(file.size)}: more than a pack file may be)`);
    else if (pack.bytes + file.size > MAX_PACK_BYTES) skipped.push(`${f.path} (the pack would hold more than ${megabytes(MAX_PACK_BYTES)})`);
    else {
      pack.bytes += file.size;
      pack.files[path] = await file.text();
    }
  }
  const out: Array<FolderPack & { dir: string }> = [];
  for (const p of packs.values()) {
    const problem = packFilesProblem(p.files);
    if (problem) skipped.push(`${p.dir || rootName} (${problem})`);
    else out.push({ dir: p.dir, name: p.name, files: p.files });
  }
  return { packs: out, skipped };
}

/**
 * Writes a pack back to the folder it was opened from: the files changed since `before` (what the
 * folder held when read, or last saved) and the removal of those deleted since. Only a pack that can
 * be opened again is written (compile errors are fine: it is being edited).
 */
export async function saveToFolder(handle: DirectoryHandle, files: Record<string, string>, before: Record<string, string>): Promise<{ written: number; removed: number }> {
  const problem = packFilesProblem(files);
  if (problem) throw new Error(`the pack would not open again (${problem}), so it was not saved`);
  if (handle.requestPermission && (await handle.requestPermission({ mode: 'readwrite' })) !== 'granted') throw new Error('the browser was not allowed to write to the folder');
  const folderOf = async (path: string, create: boolean) => {
    let dir = handle;
    for (const part of path.split('/').slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create });
    return dir;
  };
  let written = 0;
  let removed = 0;
  for (const [path, text] of Object.entries(files)) {
    if (before[path] === text) continue;
    const file = await (await folderOf(path, true)).getFileHandle(path.split('/').pop()!, { create: true });
    const out = await file.createWritable();
    await out.write(text);
    await out.close();
    written++;
  }
  for (const path of Object.keys(before)) {
    if (path in files) continue;
    await (await folderOf(path, false)).removeEntry(path.split('/').pop()!);
    removed++;
  }
  return { written, removed };
}

export type { DirectoryHandle };
