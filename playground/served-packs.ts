/**
 * The designer's own folder of packs, served read-only to the playground by its dev server
 * (`rulebook serve PATH`, `npm start -- PATH`), or by a preview server of the built playground (the
 * e2e tests'). The page asks `/@rulebook/served` once when it loads and gets every pack under the
 * folder (or the folder itself when it is a pack), with the packs they build on that are installed
 * in a `node_modules` (found as the compiler finds them).
 *
 * Confinement: nothing of the folder is ever served by path. Pack folders are found by walking the
 * folder without following a link out of it, and each pack is read by `readPackFolder`: its YAML
 * files only, no link out of the pack, with the compiler's size caps. The server never writes.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';
import { dependencyFolder, readPackFolder } from '../compiler/packFolder.ts';
import { neededPacks, requirementsOf } from '../compiler/requirements.ts';

/** What the page receives: the folder's name and its packs, by key (`folder/<name>/<path>`), as path → text. */
export interface ServedPacks {
  folder?: string;
  packs: Record<string, Record<string, string>>;
  /** Why the folder could not be read, shown to the designer. */
  problem?: string;
}

export const SERVED_PATH = '/@rulebook/served';

/** Pack folders under `root`, never leaving it through a link, and not inside a pack or `node_modules`. */
function packFolders(root: string): string[] {
  const top = realpathSync(root);
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (dir: string) => {
    let real: string;
    try {
      real = realpathSync(dir);
      if (!statSync(real).isDirectory()) return;
    } catch {
      return;
    }
    const rel = relative(top, real);
    if (rel.startsWith('..') || seen.has(real)) return;
    seen.add(real);
    const names = readdirSync(real).sort();
    if (names.includes('pack.yaml')) {
      out.push(dir);
      return;
    }
    for (const name of names) if (name !== 'node_modules' && !name.startsWith('.')) walk(join(dir, name));
  };
  walk(root);
  return out;
}

/** Reads the folder afresh: a reload of the page shows what is on disk now. */
export function readServedPacks(root: string): ServedPacks {
  const name = basename(realpathSync(root));
  const packs: ServedPacks['packs'] = Object.create(null);
  // A file's byte order mark is not sent: Monaco drops it from the text it edits, and the compile
  // must read what the editor shows, or its places are not the editor's.
  const files = (dir: string) => Object.fromEntries(readPackFolder(dir).filter((f) => !f.refused).map((f) => [f.path, f.text.startsWith('\ufeff') ? f.text.slice(1) : f.text]));
  const ids = new Set<string>();
  const needs: Array<{ id: string; from: string }> = [];
  for (const dir of packFolders(root)) {
    const key = `folder/${name}${relative(root, dir) ? `/${relative(root, dir).split(sep).join('/')}` : ''}`;
    packs[key] = files(dir);
    const r = requirementsOf(packs[key]['pack.yaml'] ?? '');
    if (r.id) ids.add(r.id);
    needs.push(...neededPacks(r).map((n) => ({ id: n.id, from: dir })));
  }
  // The packs they build on that live elsewhere (installed with npm), so that they compile here as on the command line.
  while (needs.length) {
    const { id, from } = needs.shift()!;
    if (ids.has(id)) continue;
    const dir = dependencyFolder(from, id);
    if (!dir) continue;
    ids.add(id);
    const key = `folder/${name}/installed/${id}`;
    packs[key] = files(dir);
    needs.push(...neededPacks(requirementsOf(packs[key]['pack.yaml'] ?? '')).map((n) => ({ id: n.id, from: dir })));
  }
  return { folder: name, packs };
}

/**
 * The server's side: `/@rulebook/served` answers the folder's packs, or none when no folder is
 * served, from the dev server (`rulebook serve`) and from `vite preview` of the built playground alike.
 */
export function servedPacks(root: string | undefined): Plugin {
  const answer = (_req: IncomingMessage, res: ServerResponse) => {
    let body: ServedPacks = { packs: {} };
    let status = 200;
    try {
      if (root) body = readServedPacks(root);
    } catch (e) {
      status = 500;
      body = { packs: {}, problem: `the folder ${root} could not be read (${(e as Error).message})` };
    }
    res.statusCode = status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.end(JSON.stringify(body));
  };
  return {
    name: 'rulebook-served-packs',
    configureServer(server) {
      server.middlewares.use(SERVED_PATH, answer);
    },
    configurePreviewServer(server) {
      server.middlewares.use(SERVED_PATH, answer);
    },
  };
}
