/**
 * A list whose items stay the same DOM nodes while they draw the same: a new list is matched to the
 * last by each item's key (what it draws), items met again keep their node, and only nodes of new
 * items are made and inserted. A node taken out and put back has its style and layout computed
 * anew, so a game's log of hundreds of entries, of which a replay under new rules changes a few
 * (or a move adds one), costs the few, not the whole list.
 */
export interface KeptItem {
  /** Everything the item's node shows: equal keys draw equal nodes. */
  key: string;
  make(): HTMLElement;
}

export class KeptList<E extends HTMLElement> {
  private shown: Array<{ key: string; node: HTMLElement }> = [];

  constructor(readonly el: E) {}

  /** The list drawn as `items`; true when any node was added or removed. */
  update(items: KeptItem[]): boolean {
    // Nodes by key, in the order shown: an item repeated (two equal log lines) takes them in turn.
    const pool = new Map<string, HTMLElement[]>();
    for (const { key, node } of this.shown) {
      const q = pool.get(key);
      if (q) q.push(node);
      else pool.set(key, [node]);
    }
    let changed = false;
    const next = items.map(({ key, make }) => {
      const node = pool.get(key)?.shift();
      if (node) return { key, node };
      changed = true;
      return { key, node: make() };
    });
    for (const q of pool.values()) {
      for (const node of q) {
        node.remove();
        changed = true;
      }
    }
    // The nodes kept are in their order already (a list's items keep theirs): only new ones go in.
    let at = this.el.firstChild;
    for (const { node } of next) {
      if (at === node) at = at.nextSibling;
      else this.el.insertBefore(node, at);
    }
    this.shown = next;
    return changed;
  }
}
