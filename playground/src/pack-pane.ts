/**
 * The pack workspace's controls: the pack picker, revert or delete, new, import, open a local
 * folder and save back to it, export and share, and the list of the pack's files with their problem
 * counts. The packs themselves and the designer's edits are kept by `workspace.ts`.
 */
import { h, clear } from './dom.ts';
import { ask, confirmAction } from './dialog.ts';
import type { AppContext } from './context.ts';
import { decodeShare, encodeShare, type SharePayload } from './share.ts';
import { exportZip, importZip } from './zip.ts';
import { canPickFolder, pickFolder, saveToFolder, uploadedFolder, type DirectoryHandle, type FolderRead } from './local-folder.ts';
import { isPackPath, packFilesProblem } from './loadable.ts';
import { builtinPacks, manifestId, newPackFiles, NotLoadable, served, Workspace, type Session } from './workspace.ts';
import { packFiles } from './pack-files.ts';

export interface PackHost {
  openPack(key: string): void;
  scheduleCompile(): void;
}

export class PackPane {
  readonly packSelect = h('select', { 'data-testid': 'pack-select', title: 'Pack' });
  readonly revert = h('button', { class: 'ghost', 'data-testid': 'revert-pack', title: 'Discard your edits to this shipped pack' }, 'Revert');
  readonly fileList = h('nav', { class: 'files', 'data-testid': 'file-list' });
  readonly fileTitle = h('div', { class: 'file-title', 'data-testid': 'file-title' });
  readonly importInput = h('input', { type: 'file', accept: '.zip,application/zip', hidden: true, 'data-testid': 'import-input' });
  /** Where the browser has no folder picker: a folder upload (read once). */
  readonly folderInput = h('input', { type: 'file', webkitdirectory: true, multiple: true, hidden: true, 'data-testid': 'folder-input' });
  readonly saveFolder = h('button', { 'data-testid': 'save-folder', title: 'Write this pack back to the folder it was opened from', hidden: true }, 'Save to folder');
  /** Open a folder, and save back to it; the topbar shows these. */
  readonly folderControls = h(
    'span',
    { class: 'folder-controls' },
    h('button', { 'data-testid': 'open-folder', title: 'Open a pack, or a folder of packs, from your disk', onclick: () => void this.openFolder() }, 'Open folder'),
    this.saveFolder,
    this.folderInput,
  );
  /** Packs opened from a folder this visit: where to write them back, and what the folder holds now. */
  private readonly folders = new Map<string, { handle: DirectoryHandle; onDisk: Record<string, string> }>();

  constructor(
    private readonly ctx: AppContext,
    private readonly host: PackHost,
    /** The game in progress, which a share link carries. */
    private readonly session: () => Session | undefined,
  ) {
    this.packSelect.addEventListener('change', () => host.openPack(this.packSelect.value));
    this.revert.addEventListener('click', () => void this.revertPack());
    this.importInput.addEventListener('change', () => void this.importFile());
    this.folderInput.addEventListener('change', () => void this.uploadFolder());
    this.saveFolder.addEventListener('click', () => void this.saveBack());
  }

  /** The key of a pack added here, or a note that it could not be (files that would not load again). */
  private addLocal(name: string, files: Record<string, string>): string | undefined {
    try {
      return this.ctx.ws.addLocal(name, files);
    } catch (e) {
      if (!(e instanceof NotLoadable)) throw e;
      this.ctx.toast(`${name} was not opened: ${e.message}.`, 'error');
      return undefined;
    }
  }

  /** The pack a share link in the address carries, opened as a local copy; false when there is none. */
  openFromLink(): boolean {
    const notes = [...this.ctx.ws.setAside, ...(served.problem ? [served.problem] : [])];
    if (notes.length) this.ctx.toast(`${notes.join('; ')}.`, 'error');
    const shared = decodeShare(location.hash);
    if (shared?.ok) {
      this.openShared(shared.payload);
      if (shared.notice) this.ctx.toast(shared.notice, 'info');
      return true;
    }
    if (shared && !shared.ok) this.ctx.toast(shared.reason, 'error');
    return false;
  }

  renderPackSelect() {
    const option = (p: ReturnType<Workspace['list']>[number]) => h('option', { value: p.key, selected: p.key === this.ctx.packKey }, `${p.label}${p.edited && p.origin === 'builtin' ? ' (edited)' : ''}`);
    const packs = this.ctx.ws.list();
    const group = (label: string, keep: (p: (typeof packs)[number]) => boolean) => {
      const ps = packs.filter(keep);
      return ps.length ? h('optgroup', { label }, ps.map(option)) : null;
    };
    clear(
      this.packSelect,
      group(`Folder${served.folder ? `: ${served.folder}` : ''}`, (p) => p.key.startsWith('folder/')),
      group('Packs', (p) => p.key.startsWith('content/')),
      group('Yours', (p) => p.origin === 'local'),
      group('Examples', (p) => p.key.startsWith('examples/')),
    );
    this.packSelect.value = this.ctx.packKey;
    const entry = this.ctx.ws.get(this.ctx.packKey);
    this.saveFolder.hidden = !this.folders.has(this.ctx.packKey);
    this.revert.hidden = !(entry?.origin === 'builtin' && this.ctx.ws.isEdited(this.ctx.packKey));
    if (entry?.origin === 'local') {
      this.revert.hidden = false;
      this.revert.textContent = 'Delete';
      this.revert.title = 'Delete this pack from the playground';
    } else {
      this.revert.textContent = 'Revert';
      this.revert.title = 'Discard your edits to this shipped pack';
    }
  }


  async revertPack() {
    const entry = this.ctx.ws.get(this.ctx.packKey);
    if (!entry) return;
    if (entry.origin === 'local') {
      if (!(await confirmAction(`Delete “${manifestId(entry.files) ?? this.ctx.packKey}”?`, 'The pack is removed from this browser. Export it first to keep a copy.', 'Delete pack'))) return;
      this.ctx.ws.remove(this.ctx.packKey);
      this.host.openPack(this.ctx.ws.current);
      return;
    }
    if (!(await confirmAction('Revert to the shipped pack?', 'All your edits to this pack are discarded, and its files are as shipped again.', 'Discard edits'))) return;
    this.ctx.ws.revert(this.ctx.packKey);
    this.host.openPack(this.ctx.packKey);
    this.ctx.toast('Edits discarded.');
  }

  async newPack() {
    const id = await ask('New pack', 'Its id: letters, digits and dashes. The pack starts as a small playable game to change into yours.', 'my-game', 'Create');
    if (!id) return;
    const clean = id.trim().toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    const key = this.addLocal(clean, newPackFiles(clean));
    if (key) this.host.openPack(key);
  }

  /** Opens a folder from the disk: with the browser's folder picker (and saving back) where it has one, else as an upload. */
  async openFolder() {
    if (!canPickFolder()) {
      this.folderInput.click();
      return;
    }
    let read: FolderRead | undefined;
    try {
      read = await pickFolder();
    } catch (e) {
      this.ctx.toast(`The folder could not be read: ${(e as Error).message}.`, 'error');
      return;
    }
    if (read) this.openPacks(read, true);
  }

  private async uploadFolder() {
    const list = this.folderInput.files;
    if (!list?.length) return;
    const read = await uploadedFolder(list);
    this.folderInput.value = '';
    this.openPacks(read, false);
  }

  private openPacks(read: FolderRead, writable: boolean) {
    if (!read.packs.length) {
      this.ctx.toast(`No pack (a folder with a pack.yaml) was found in that folder${read.skipped.length ? `; left out: ${read.skipped.join(', ')}` : ''}.`, 'error');
      return;
    }
    let first: string | undefined;
    for (const p of read.packs) {
      const key = this.addLocal(p.name, p.files);
      if (!key) continue;
      first ??= key;
      if (p.handle) this.folders.set(key, { handle: p.handle, onDisk: packFiles(p.files) });
    }
    if (!first) return;
    this.host.openPack(first);
    const names = read.packs.map((p) => p.name).join(', ');
    const how = writable ? 'Save to folder writes your edits back' : 'this browser cannot write to a folder: Export a zip to keep your edits';
    this.ctx.toast(`Opened ${names} from the folder (${how})${read.skipped.length ? `; left out: ${read.skipped.join(', ')}` : ''}.`, read.skipped.length ? 'error' : 'info');
  }

  /** Writes the pack open back to its folder: only a pack that can be opened again is written. */
  async saveBack() {
    const folder = this.folders.get(this.ctx.packKey);
    if (!folder) return;
    const files = packFiles(this.ctx.files);
    try {
      const { written, removed } = await saveToFolder(folder.handle, files, folder.onDisk);
      folder.onDisk = files;
      this.ctx.toast(`Saved to the folder ${folder.handle.name}: ${written} file${written === 1 ? '' : 's'} written${removed ? `, ${removed} removed` : ''}.`);
    } catch (e) {
      this.ctx.toast(`Not saved to the folder: ${(e as Error).message}.`, 'error');
    }
  }

  exportPack() {
    const id = manifestId(this.ctx.files) ?? this.ctx.packKey.split('/').pop() ?? 'pack';
    const bytes = exportZip(id, this.ctx.files);
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
    const a = h('a', { href: url, download: `${id}.zip` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    this.ctx.toast(`Exported ${id}.zip.`);
  }

  async importFile() {
    const file = this.importInput.files?.[0];
    this.importInput.value = '';
    if (!file) return;
    const r = importZip(new Uint8Array(await file.arrayBuffer()));
    if (!r.ok) {
      this.ctx.toast(`Could not import ${file.name}: ${r.reason}.`, 'error');
      return;
    }
    const key = this.addLocal(r.id, r.files);
    if (!key) return;
    this.host.openPack(key);
    this.ctx.toast(`Imported ${r.id} (${Object.keys(r.files).length} files)${r.ignored.length ? `; ignored ${r.ignored.length} files that are not pack YAML` : ''}.`);
  }

  async share() {
    // Whoever opens the link has the shipped packs, not the designer's served folder: its packs travel whole.
    const base = builtinPacks[this.ctx.packKey] && !this.ctx.packKey.startsWith('folder/') ? this.ctx.packKey : undefined;
    const original = base ? builtinPacks[base] : packFiles();
    const files = packFiles();
    for (const [p, t] of Object.entries(this.ctx.files)) if (original[p] !== t) files[p] = t;
    // A link is kept by whoever opens it: it carries only files that open again, and the game as last replayed whole.
    const problem = packFilesProblem(this.ctx.files);
    if (problem) return this.ctx.toast(`No share link: this pack would not open again (${problem}).`, 'error');
    const live = this.session();
    const session = live && this.ctx.ws.session(this.ctx.packKey);
    const payload: SharePayload = { v: 1, base, files, deleted: Object.keys(original).filter((p) => !(p in this.ctx.files)), ...(session ? { session } : {}) };
    const url = `${location.origin}${location.pathname}${encodeShare(payload)}`;
    try {
      await navigator.clipboard.writeText(url);
      this.ctx.toast('Share link copied: it carries your edits, the seed and the moves.', 'info', url);
    } catch {
      this.ctx.toast('Share link (copy it):', 'info', url);
    }
  }

  openShared(p: SharePayload) {
    history.replaceState(null, '', location.pathname + location.search);
    const base = packFiles(p.base ? builtinPacks[p.base] : undefined);
    for (const d of p.deleted ?? []) delete base[d];
    const files = packFiles(base, p.files);
    if (!files['pack.yaml']) {
      this.ctx.toast('The share link has no pack.yaml, so it holds no pack.', 'error');
      this.host.openPack(this.ctx.ws.current);
      return;
    }
    const key = this.addLocal(`${manifestId(files) ?? 'pack'}-shared`, files);
    if (!key) return this.host.openPack(this.ctx.ws.current);
    if (p.session) this.ctx.ws.setSession(key, p.session);
    this.host.openPack(key);
    this.ctx.toast('Opened a shared pack as a local copy; your own edits are untouched.');
  }

  /** The file list drawn: its files in order with the one open, and each file's button and badge. */
  private listed: { key: string; buttons: Map<string, { button: HTMLElement; badge: string }> } | undefined;
  private titleSaid = '';

  /**
   * The files and their problem counts. Drawn anew only when the files or the one open change; a
   * compile changes the badges of the files whose counts changed, so the list is not laid out again.
   */
  renderFiles() {
    const counts = new Map<string, { e: number; w: number }>();
    for (const d of this.ctx.diagnostics) {
      const c = counts.get(d.file) ?? { e: 0, w: 0 };
      if (d.severity === 'error') c.e++;
      else c.w++;
      counts.set(d.file, c);
    }
    const badgeOf = (p: string) => {
      const c = counts.get(p);
      return c?.e ? `error ${c.e}` : c?.w ? `warning ${c.w}` : '';
    };
    const paths = Object.keys(this.ctx.files).sort((a, b) => (a === 'pack.yaml' ? -1 : b === 'pack.yaml' ? 1 : a.localeCompare(b)));
    const current = this.ctx.editor.currentFile;
    const key = JSON.stringify([current, paths]);
    if (this.listed?.key === key && this.fileList.isConnected) {
      for (const [p, b] of this.listed.buttons) {
        const badge = badgeOf(p);
        if (badge === b.badge) continue;
        b.badge = badge;
        b.button.querySelector('.badge')?.remove();
        if (badge) b.button.append(badgeElement(badge));
      }
    } else {
      const buttons = new Map<string, { button: HTMLElement; badge: string }>();
      let lastDir = '';
      const items: HTMLElement[] = [];
      for (const p of paths) {
        const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
        if (dir !== lastDir && dir) items.push(h('div', { class: 'dir' }, `${dir}/`));
        lastDir = dir;
        const badge = badgeOf(p);
        const button = h(
          'button',
          { class: `file${p === current ? ' active' : ''}${dir ? ' nested' : ''}`, 'data-testid': `file-${p}`, title: p, onclick: () => this.ctx.editor.open(p) },
          h('span', { class: 'name' }, p.slice(dir ? dir.length + 1 : 0)),
          badge ? badgeElement(badge) : null,
        );
        buttons.set(p, { button, badge });
        items.push(button);
      }
      clear(
        this.fileList,
        h('div', { class: 'files-head' }, h('span', null, 'Files'), h('button', { class: 'icon', title: 'New file', 'data-testid': 'add-file', onclick: () => void this.addFile() }, '+')),
        h('div', { class: 'files-scroll' }, items),
      );
      this.listed = { key, buttons };
    }
    const dirty = !!current && this.ctx.ws.get(this.ctx.packKey)?.origin === 'builtin' && builtinPacks[this.ctx.packKey]?.[current] !== this.ctx.files[current];
    const title = JSON.stringify([current, dirty]);
    if (title === this.titleSaid) return;
    this.titleSaid = title;
    clear(
      this.fileTitle,
      h('span', { class: 'path' }, current || 'no file'),
      dirty ? h('span', { class: 'edited', title: 'Edited: differs from the shipped file; saved in this browser' }, '● edited') : null,
      current && current !== 'pack.yaml' ? h('button', { class: 'ghost small', onclick: () => void this.deleteFile(current), title: 'Delete this file' }, 'Delete file') : null,
    );
  }

  private async addFile() {
    const path = await ask('New file', 'Its path in the pack, for example races/dwarves.yaml.', 'rules.yaml', 'Add file');
    if (!path) return;
    let p = path.trim().replace(/^\/+/, '');
    if (!/\.ya?ml$/.test(p)) p += '.yaml';
    if (!isPackPath(p)) return this.ctx.toast('A pack file is a .yaml path inside its pack folder.', 'error');
    if (this.ctx.files[p] !== undefined) return this.ctx.editor.open(p);
    const text = '# New file\n';
    this.ctx.files[p] = text;
    this.ctx.ws.setFile(this.ctx.packKey, p, text);
    this.ctx.editor.addFile(p, text);
    this.renderFiles();
    this.host.scheduleCompile();
  }

  private async deleteFile(p: string) {
    if (!(await confirmAction(`Delete ${p}?`, 'The file is removed from this pack. Undo is not possible, but Revert brings back a shipped file.', 'Delete file'))) return;
    delete this.ctx.files[p];
    this.ctx.ws.setFile(this.ctx.packKey, p, undefined);
    this.ctx.editor.removeFile(p);
    this.renderFiles();
    this.renderPackSelect();
    this.host.scheduleCompile();
  }
}

/** A file's problem count, as `renderFiles` keeps it: `error 2`, `warning 1`. */
function badgeElement(badge: string): HTMLElement {
  const [severity, count] = badge.split(' ');
  return h('span', { class: `badge ${severity}` }, count);
}
