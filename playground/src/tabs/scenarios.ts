/** The Scenarios tab: the pack's scenario tests, run on each compile without errors, failures first. */
import { h, clear } from '../dom.ts';
import type { AppContext } from '../context.ts';
import type { ScenariosResponse } from '../protocol.ts';
import type { Tab } from './tab.ts';

export class ScenariosTab implements Tab {
  readonly id = 'scenarios';
  private run: ScenariosResponse | undefined;

  constructor(private readonly ctx: AppContext) {
    ctx.engine.onScenarios = (r) => this.onScenarios(r);
  }

  reset() {
    this.run = undefined;
  }

  private onScenarios(r: ScenariosResponse) {
    if (r.version !== this.ctx.version) return;
    this.run = r;
    this.ctx.editor.setScenarioMarkers(
      r.results.flatMap((res) => res.failures.map((f) => ({ file: f.at.file, offset: f.at.offset, length: f.at.length, message: [f.message, f.reason && `reason: ${f.reason}`, f.hint].filter(Boolean).join('\n') }))),
    );
    this.ctx.renderTabs();
  }

  label() {
    if (!Object.keys(this.ctx.files).some((p) => p.startsWith('scenarios/'))) return null;
    const run = this.run;
    const failed = run?.results.filter((r) => !r.passed).length ?? 0;
    return [
      'Scenarios ',
      run
        ? h('span', { class: `count${failed || run.error ? ' error' : ' good'}`, 'data-testid': 'scenario-count', title: `${run.results.length - failed} passed, ${failed} failed` }, failed ? `${failed} failed` : `${run.results.length} passed`)
        : h('span', { class: 'count', 'data-testid': 'scenario-count', title: 'The scenarios run once the pack compiles without errors' }, this.ctx.summary ? '…' : 'not run'),
    ];
  }

  note() {
    return this.run ? h('span', { class: 'ran' }, `ran on the last good compile in ${Math.round(this.run.ms)} ms`) : null;
  }

  render(into: HTMLElement) {
    const run = this.run;
    const editor = this.ctx.editor;
    if (!run) {
      clear(into, h('div', { class: 'empty' }, this.ctx.summary ? 'Running the scenarios…' : 'The scenarios run once the pack compiles without errors.'));
      return;
    }
    const results = [...run.results].sort((a, b) => Number(a.passed) - Number(b.passed));
    clear(
      into,
      run.error ? h('div', { class: 'problem error' }, h('span', { class: 'sev' }, '✕'), h('div', { class: 'body' }, run.error)) : null,
      results.map((r) =>
        h('div', { class: `scenario ${r.passed ? 'passed' : 'failed'}`, 'data-testid': 'scenario', 'data-passed': String(r.passed) },
          h('div', { class: 'problem-row', tabindex: 0, onclick: () => editor.revealLine(r.file, r.line) },
            h('span', { class: 'sev' }, r.passed ? '✓' : '✕'),
            h('span', { class: 'message' }, r.scenario),
            ' ',
            h('span', { class: 'where' }, `${r.file}:${r.line}`),
          ),
          r.failures.map((f) =>
            h('div', { class: 'failure', tabindex: 0, onclick: () => editor.reveal(f.at.file, f.at.offset, f.at.offset + f.at.length) },
              h('div', null, f.message, ' ', h('span', { class: 'where' }, `${f.at.file}:${f.at.line}:${f.at.column}`)),
              f.reason ? h('div', { class: 'hint' }, `the rules said: ${f.reason}`) : null,
              f.expected !== undefined || f.found !== undefined ? h('div', { class: 'hint' }, `expected ${JSON.stringify(f.expected)}, found ${JSON.stringify(f.found)}`) : null,
              f.hint ? h('div', { class: 'hint' }, f.hint) : null,
            ),
          ),
        ),
      ),
    );
  }
}
