/** The panel under the editor: the tab bar and the open tab's content. */
import { h, clear } from '../dom.ts';
import type { Tab } from './tab.ts';

export class TabPanel {
  readonly title = h('div', { class: 'problems-title' });
  readonly body = h('div', { class: 'problems-list', 'data-testid': 'problems' });
  open: string;

  constructor(private readonly tabs: Tab[]) {
    this.open = tabs[0].id;
  }

  reset() {
    for (const t of this.tabs) t.reset?.();
  }

  render() {
    const shown = this.tabs.flatMap((t) => {
      const label = t.label();
      return label ? [{ t, label }] : [];
    });
    // A tab with nothing to show (no scenarios in this pack) closes.
    const active = (shown.find((s) => s.t.id === this.open) ?? shown[0]).t;
    this.open = active.id;
    clear(
      this.title,
      shown.map(({ t, label }) => h('button', { class: `tab${t === active ? ' active' : ''}`, 'data-testid': `tab-${t.id}`, onclick: () => { this.open = t.id; this.render(); } }, ...label)),
      active.note?.() ?? null,
    );
    active.render(this.body);
  }
}
