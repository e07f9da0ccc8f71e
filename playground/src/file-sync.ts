/**
 * The pack's texts on their way to the engine worker. A compile names every file it reads but
 * carries only the texts the worker does not hold yet: a keystroke posts the file it changed, not
 * the whole pack (481 KB for Small World), which the page would clone in the keystroke's task and
 * the worker again before it could start the check.
 *
 * Both ends keep the same map of what the worker holds: each compile sets it to exactly the files
 * that compile names, so a file deleted is forgotten on both sides. Messages to a worker arrive in
 * the order they were posted, and the worker takes in every compile's texts as it arrives, even a
 * compile it then skips for a newer one, so the two maps never differ. A new worker holds nothing,
 * and the page forgets what it had sent to the old one.
 */
import type { SourceFile } from './engine-types.ts';

/** A list of files by name: the pack's own, its scenario tests', or a dependency's. */
export interface FileList {
  name: string;
  files: SourceFile[];
}

/** Lists of files as posted: each list's paths in order, and the texts the worker lacks (by list index). */
export interface PostedFiles {
  lists: Array<{ name: string; paths: string[] }>;
  texts: Array<{ list: number; path: string; text: string }>;
}

/** Texts by list name, then by path. */
type Texts = Map<string, Map<string, string>>;

/** The page's end: what it has posted to the worker running now. */
export class SentFiles {
  private held: Texts = new Map();

  /** A new worker holds nothing. */
  forget() {
    this.held = new Map();
  }

  post(lists: FileList[]): PostedFiles {
    const next: Texts = new Map();
    const out: PostedFiles = { lists: [], texts: [] };
    lists.forEach((l, i) => {
      const had = this.held.get(l.name);
      const has = new Map<string, string>();
      const paths: string[] = [];
      for (const f of l.files) {
        // Unchanged texts are the same strings as last time: the comparison is one of references.
        if (had?.get(f.path) !== f.text) out.texts.push({ list: i, path: f.path, text: f.text });
        has.set(f.path, f.text);
        paths.push(f.path);
      }
      next.set(l.name, has);
      out.lists.push({ name: l.name, paths });
    });
    this.held = next;
    return out;
  }
}

/** The worker's end: the texts the page has posted, and the lists each compile reads. */
export class HeldFiles {
  private held: Texts = new Map();

  /**
   * The lists a compile reads. A text that never arrived would be a bug of this protocol: it
   * throws, the page restarts the worker (engine-client.ts), and the new one is sent everything.
   */
  take(posted: PostedFiles): FileList[] {
    const sent = posted.lists.map(() => new Map<string, string>());
    for (const t of posted.texts) sent[t.list]?.set(t.path, t.text);
    const next: Texts = new Map();
    const lists = posted.lists.map((l, i): FileList => {
      const had = this.held.get(l.name);
      const has = new Map<string, string>();
      const files = l.paths.map((path): SourceFile => {
        const text = sent[i].get(path) ?? had?.get(path);
        if (text === undefined) throw new Error(`the engine was not sent the text of ${l.name} ${path}`);
        has.set(path, text);
        return { path, text };
      });
      next.set(l.name, has);
      return { name: l.name, files };
    });
    this.held = next;
    return lists;
  }
}
