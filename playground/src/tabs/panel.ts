/** The panel under the editor: the tab bar and the open tab's content. */
import { h, clear } from '../dom.ts';
import type { Tab } from './tab.ts';

export class TabPanel {
  readonly title = h('div', { class: 'problems-title' });
  readonly body = h('div', { class: 'problems-list', 'data-testid': 'problems' });
  open: string;
  /** The tab bar's markup last drawn: a render that would draw the same keeps it. */
  private titleSaid = '';

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
    const title = [...shown.map(({ t, label }) => h('button', { class: `tab${t === active ? ' active' : ''}`, 'data-testid': `tab-${t.id}`, onclick: () => { this.open = t.id; this.render(); } }, ...label)), active.note?.() ?? null];
    const said = title.map((x) => (x instanceof Element ? x.outerHTML : (x ?? ''))).join('');
    if (said !== this.titleSaid) {
      this.titleSaid = said;
      clear(this.title, title);
    }
    active.render(this.body);
  }
}
