/** The Problems tab: the compiler's diagnostics, each a click away from its place, with its safe fix. */
import { h, clear } from '../dom.ts';
import type { AppContext } from '../context.ts';
import type { Diagnostic } from '../engine-types.ts';
import type { Tab } from './tab.ts';

export class ProblemsTab implements Tab {
  readonly id = 'problems';

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
    if (!ds.length) {
      clear(into, h('div', { class: 'empty' }, this.ctx.lastCompile ? 'No problems: the pack compiles.' : 'Compiling…'));
      return;
    }
    clear(
      into,
      ds.map((d) =>
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
        ),
      ),
    );
  }
}
