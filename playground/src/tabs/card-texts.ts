/**
 * The Card texts tab: the card text checker's verdict on each card in each language (its text
 * against what its rules say), on each compile without errors; findings are underlined too.
 */
import { h, clear } from '../dom.ts';
import type { AppContext } from '../context.ts';
import type { TextFindingInfo, TextsResponse } from '../protocol.ts';
import type { Tab } from './tab.ts';

/** Every finding of the card text checker: the cards' and the language files'. */
function findingsOf(r: TextsResponse): TextFindingInfo[] {
  return [...r.setup, ...r.cards.flatMap((c) => Object.values(c.langs).flatMap((l) => l.findings))];
}

export class CardTextsTab implements Tab {
  readonly id = 'texts';
  private run: TextsResponse | undefined;

  constructor(private readonly ctx: AppContext) {
    ctx.engine.onTexts = (r) => this.onTexts(r);
  }

  reset() {
    this.run = undefined;
    this.ctx.editor.setTextMarkers([]);
  }

  private onTexts(r: TextsResponse) {
    if (r.version !== this.ctx.version) return;
    this.run = r;
    this.ctx.editor.setTextMarkers(findingsOf(r));
    this.ctx.renderTabs();
  }

  label() {
    const texts = this.run;
    const count = texts ? findingsOf(texts).length : 0;
    const errors = texts ? findingsOf(texts).some((f) => f.severity === 'error') : false;
    return [
      'Card texts ',
      texts
        ? h('span', { class: `count${texts.error || errors ? ' error' : count ? ' warning' : ' good'}`, 'data-testid': 'text-count', 'data-findings': count }, texts.error ? 'failed' : `${texts.cards.length} cards · ${count} finding${count === 1 ? '' : 's'}`)
        : h('span', { class: 'count', 'data-testid': 'text-count', title: 'Card texts are checked once the pack compiles without errors' }, this.ctx.summary ? '…' : 'not run'),
    ];
  }

  note() {
    return this.run ? h('span', { class: 'ran' }, `checked on the last good compile in ${Math.round(this.run.ms)} ms`) : null;
  }

  /** Each card with a ✓ or ✗ per language; its findings below it, a click away from the text's words. */
  render(into: HTMLElement) {
    const run = this.run;
    const editor = this.ctx.editor;
    if (!run) {
      clear(into, h('div', { class: 'empty' }, this.ctx.summary ? 'Checking the card texts…' : 'Card texts are checked once the pack compiles without errors.'));
      return;
    }
    const bad = (c: TextsResponse['cards'][number]) => Object.values(c.langs).some((l) => l.findings.length);
    const cards = [...run.cards].sort((a, b) => Number(bad(b)) - Number(bad(a)));
    const finding = (f: TextFindingInfo) =>
      h('div', { class: `failure ${f.severity}`, 'data-testid': 'text-finding', 'data-card': f.card, 'data-lang': f.lang, 'data-code': f.code, tabindex: 0, title: f.hint ?? '', onclick: () => editor.reveal(f.file, f.offset, f.endOffset), onkeydown: (e: Event) => (e as KeyboardEvent).key === 'Enter' && editor.reveal(f.file, f.offset, f.endOffset) },
        h('div', null, f.lang ? h('span', { class: 'lang' }, f.lang) : null, ' ', f.message, ' ', h('span', { class: 'where' }, `${f.file}:${f.line}:${f.column}`), ' ', h('span', { class: 'code' }, f.code)),
        f.canonical ? h('div', { class: 'hint' }, `the rules read: “${f.canonical}”`) : null,
        f.rule ? h('div', { class: 'hint rule', onclick: (e: Event) => { e.stopPropagation(); editor.revealLine(f.rule!.file, f.rule!.line); } }, `rule at ${f.rule.file}:${f.rule.line}:${f.rule.column}: ${f.rule.source}`) : null,
      );
    clear(
      into,
      run.error ? h('div', { class: 'problem error' }, h('span', { class: 'sev' }, '✕'), h('div', { class: 'body' }, run.error)) : null,
      run.setup.map(finding),
      cards.map((c) =>
        h('div', { class: `scenario card-text ${bad(c) ? 'failed' : 'passed'}`, 'data-testid': 'card-text', 'data-card': c.id, 'data-ok': String(!bad(c)) },
          h('div', { class: 'problem-row', tabindex: 0, onclick: () => editor.revealLine(c.file, c.line) },
            h('span', { class: 'message' }, c.id),
            run.languages.map((lang) => {
              const l = c.langs[lang];
              if (!l) return null;
              const mark = l.findings.some((f) => f.severity === 'error') ? '✗' : l.findings.length ? '!' : '✓';
              return h('span', { class: `verdict ${mark === '✓' ? 'ok' : mark === '✗' ? 'bad' : 'warn'}`, 'data-testid': 'card-verdict', 'data-lang': lang, 'data-ok': String(l.ok), title: `${lang}: ${l.text ?? '(no text)'}\nfrom the rules: ${l.canonical}` }, `${mark} ${lang}`);
            }),
            ' ',
            h('span', { class: 'where' }, `${c.file}:${c.line}`),
          ),
          Object.values(c.langs).flatMap((l) => l.findings).map(finding),
        ),
      ),
    );
  }
}
