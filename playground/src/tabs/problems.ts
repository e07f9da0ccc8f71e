/** The Problems tab: the compiler's diagnostics, each a click away from its place, with its safe fix. */
import { h, clear } from '../dom.ts';
import type { AppContext } from '../context.ts';
import type { Diagnostic } from '../engine-types.ts';
import { afterPaint } from '../frames.ts';
import type { Tab } from './tab.ts';

/** More rows than the panel shows at once. */
const FIRST_ROWS = 20;

export class ProblemsTab implements Tab {
  readonly id = 'problems';

  /** What the list was drawn from, and where: a compile with the same diagnostics keeps it. */
  private drawn: { from: string; into: HTMLElement; first: ChildNode | null } | undefined;

  constructor(private readonly ctx: AppContext) {}

  private sorted(): Diagnostic[] {
    return [...this.ctx.diagnostics].sort((a, b) => (a.severity === b.severity ? a.file.localeCompare(b.file) || a.offset - b.offset : a.severity === 'error' ? -1 : 1));
  }

  label() {
    const ds = this.ctx.diagnostics;
    const errors = ds.filter((d) => d.severity === 'error').length;
    return ['Problems ', h('span', { class: `count${errors ? ' error' : ds.length ? ' warning' : ''}`, 'data-testid': 'problem-count' }, ds.length)];
  }

  render(into: HTMLElement) {
    const ds = this.sorted();
    const editor = this.ctx.editor;
    const from = JSON.stringify([!!this.ctx.lastCompile, ds]);
    // Kept only while what it drew is still there: the other tabs draw into the same element.
    if (this.drawn?.from === from && this.drawn.into === into && this.drawn.first === into.firstChild && into.firstChild) return;
    this.draw(into, ds, editor);
    this.drawn = { from, into, first: into.firstChild };
  }

  private draw(into: HTMLElement, ds: Diagnostic[], editor: AppContext['editor']) {
    if (!ds.length) {
      clear(into, h('div', { class: 'empty' }, this.ctx.lastCompile ? 'No problems: the pack compiles.' : 'Compiling…'));
      return;
    }
    const row = (d: Diagnostic) =>
      h(
        'div',
        { class: `problem ${d.severity}`, 'data-testid': 'problem', 'data-code': d.code, tabindex: 0, onclick: () => editor.reveal(d.file, d.offset, d.endOffset), onkeydown: (e: Event) => (e as KeyboardEvent).key === 'Enter' && editor.reveal(d.file, d.offset, d.endOffset) },
        h('span', { class: 'sev' }, d.severity === 'error' ? '✕' : '!'),
        h(
          'div',
          { class: 'body' },
          h('div', { class: 'msg' }, h('span', { class: 'message' }, d.message), ' ', h('span', { class: 'where' }, `${d.file}:${d.line}:${d.column}`), ' ', h('span', { class: 'code' }, d.code)),
          d.hint ? h('div', { class: 'hint' }, d.hint) : null,
        ),
        d.fix?.safe
          ? h('button', {
              class: 'small',
              'data-testid': 'apply-fix',
              title: 'Apply this fix',
              onclick: (e: Event) => {
                e.stopPropagation();
                editor.applyFix(d);
              },
            }, d.fix.replacement ? `Fix: ${d.fix.replacement}` : 'Fix')
          : null,
      );
    // A screenful first; the rest once it is painted (a broken line can make a hundred problems).
    clear(into, ds.slice(0, FIRST_ROWS).map(row));
    if (ds.length <= FIRST_ROWS) return;
    const first = into.firstChild;
    afterPaint(() => {
      if (into.firstChild === first && this.drawn?.first === first) into.append(...ds.slice(FIRST_ROWS).map(row));
    });
  }
}
