/**
 * Card text checked against behaviour, in every language a pack declares (issue #5).
 *
 *   checkPackTexts(files, options)  the whole check, from a pack's files: a report per card and language
 *   prepareTexts(analysis)          the reusable part (vocabulary, rules' claims, readers), once per pack;
 *                                   `analysis` is `analyze(files, { dependencies })` of compiler/index.ts,
 *                                   which also gives the runnable pack
 *   checkCards(context, options)    the report for a prepared pack: per card and language, `ok`, the
 *                                   findings and the card rendered from its rules
 *   checkCardText(context, card, lang, canonical, renderer, text)
 *                                   one card's text as being typed, without compiling again
 *   draftTexts(context, lang)       canonical texts of every card in one language, for a translator
 *
 * Pure functions over source files: no Node imports, so the playground's worker can run them.
 *
 * Findings (errors unless marked):
 *   TX0101 a number or limit differs      TX0102 a term differs        TX0103 a moment of the turn differs
 *   TX0105 may / must / cannot differs    TX0106 who it is for differs: "you", "an opponent", "each player", "the attacker", "your region"
 *   TX0107 how long it lasts differs or goes unsaid ("this turn", "until your next turn")
 *   TX0108 what a choice offers differs ("choose between human form or wolf form")
 *   TX0109 what a count is per differs or goes unsaid ("for each board")
 *   TX0201 the text claims what the rules do not do                     TX0202 the rules do what the text does not say
 *   TX0301 a card has no text in a declared language                    TX0302 (warning) a capitalised word no glossary knows
 *   TX0401 (warning) a template missing for a construct                 TX0402 (warning) a pipeline the glossary does not count
 *   TX0501 the glossary names what the pack lacks                       TX0502 a language file names what the glossary lacks
 *   TX0503 a declared language has no language file                     TX0504 (warning) a language file for an undeclared language
 *   TX0505 two language files for one language
 */
import type * as A from '../../dsl/ast.ts';
import { analyze, locate, type Analysis, type CompileOptions } from '../index.ts';
import type { Diagnostic, DiagnosticInput, FileSpan } from '../diagnostic.ts';
import type { EntitySym, RulesUnit } from '../declare.ts';
import { fragmentOf, fragmentSpan, spanAt } from '../load.ts';
import type { SourceFile } from '../source.ts';
import { closest } from '../suggest.ts';
import { describeClaim, type RuleClaim, type TextClaim } from './claim.ts';
import { inferUnits, ruleClaims } from './claims.ts';
import { compareClaims, type Mismatch } from './compare.ts';
import { emptyLanguage, readVocabulary, termClass, termIds, type Language, type Vocabulary } from './language.ts';
import { makeReader, readText, type Reader, type TextReading } from './read.ts';
import { Renderer } from './render.ts';

export { formatAmount } from './render.ts';
export type { RuleClaim, TextClaim } from './claim.ts';

/** A finding about a card's text: a diagnostic at the text's words (or the rule's), with the rule and its canonical text beside it. */
export interface TextFinding extends Diagnostic {
  /** The card's id, or `''` for problems of the language files themselves. */
  card: string;
  lang: string;
  /** The words of the text the finding is about. */
  words?: string;
  /** The rule the finding is about: where it is and what it says. */
  rule?: { file: string; line: number; column: number; endLine: number; endColumn: number; source: string };
  /** The rules' own words for it, rendered in this language from the pack's templates. */
  canonical?: string;
}

export interface CardLanguage {
  /** The card's text as written, if any. */
  text?: string;
  /** The card rendered from its rules in this language. */
  canonical: string;
  ok: boolean;
  findings: TextFinding[];
}

export interface CardTexts {
  id: string;
  kind: string;
  file: string;
  line: number;
  langs: Record<string, CardLanguage>;
}

export interface TextReport {
  /** No error in any card, language file or declared language. */
  ok: boolean;
  languages: string[];
  cards: CardTexts[];
  /** Every finding: the cards' and the language files'. */
  diagnostics: TextFinding[];
}

export interface Card {
  entity: EntitySym;
  units: RulesUnit[];
  claims: RuleClaim[];
}

/** A pack prepared once for any number of text checks (the mutation benchmark checks thousands). */
export interface TextContext {
  analysis: Analysis;
  vocabulary: Vocabulary;
  cards: Card[];
  readers: Map<string, Reader>;
  /** Problems of the glossary and language files (TX05xx). */
  setup: TextFinding[];
  options: CompileOptions;
}

/** The whole check from a pack's files. Compile errors come back as findings too (the check needs a pack that checks). */
export function checkPackTexts(files: SourceFile[], options: CompileOptions & { langs?: string[] } = {}): TextReport {
  const analysis = analyze(files, { ...options, lower: false });
  const ctx = prepareTexts(analysis, options);
  if (!ctx) {
    const diagnostics = analysis.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ ...d, card: '', lang: '' }));
    return { ok: false, languages: [], cards: [], diagnostics };
  }
  return checkCards(ctx, options);
}

/** The pack's vocabulary and every card's rule claims; undefined when the pack has errors that stop the checker. */
export function prepareTexts(analysis: Analysis, options: CompileOptions = {}): TextContext | undefined {
  const { loaded, declared, checked } = analysis;
  if (!loaded || !declared || !checked || analysis.diagnostics.some((d) => d.severity === 'error')) return undefined;
  const setupInputs: DiagnosticInput[] = [];
  const vocabulary = readVocabulary(loaded, declared, (x) => setupInputs.push(x));
  vocabulary.glossary.units = inferUnits(checked, vocabulary.glossary);
  const units = new Map<EntitySym, RulesUnit[]>();
  for (const u of declared.units) if (u.owner) units.set(u.owner, [...(units.get(u.owner) ?? []), u]);
  const cards: Card[] = [];
  for (const e of declared.entities.values()) {
    const us = units.get(e) ?? [];
    if (!us.length && !Object.keys(e.text).length) continue;
    cards.push({ entity: e, units: us, claims: us.flatMap((u) => ruleClaims(checked, vocabulary.glossary, u)) });
  }
  const readers = new Map<string, Reader>();
  for (const [lang, l] of vocabulary.languages) readers.set(lang, makeReader(l, vocabulary.glossary, declared));
  const manifest = loaded.manifest;
  if (cards.some((c) => Object.keys(c.entity.text).length)) {
    for (const lang of declared.manifest.languages) {
      if (vocabulary.languages.has(lang)) continue;
      setupInputs.push({
        code: 'TX0503',
        message: `the pack declares the language \`${lang}\` but has no language file for it`,
        at: manifest ? spanAt(manifest, ['languages'], true) : { file: 'pack.yaml', start: 0, end: 0 },
        hint: `add a file such as \`language/${lang}.yaml\` with \`language: { lang: ${lang}, … }\`: its units, terms, timing and templates`,
      });
    }
  }
  const ctx: TextContext = { analysis, vocabulary, cards, readers, setup: [], options };
  ctx.setup = setupInputs.map((x) => finding(ctx, x, '', ''));
  return ctx;
}

/** A diagnostic input located in the pack's files, as a text finding. */
function finding(ctx: TextContext, x: DiagnosticInput, card: string, lang: string, extra: Partial<TextFinding> = {}): TextFinding {
  const texts = ctx.analysis.declared!.texts;
  return { ...locate(x, texts, ctx.options), card, lang, ...extra };
}

/** How a rule claim is placed in the YAML and what it reads. */
function ruleSpan(unit: RulesUnit, c: RuleClaim): FileSpan {
  return fragmentSpan(unit.fragment, c.span);
}

function unitOf(card: Card, c: RuleClaim): RulesUnit {
  return card.units.find((u) => u.program.decls.includes(c.decl)) ?? card.units[0];
}

export function rendererFor(ctx: TextContext, lang: string): Renderer {
  const l = ctx.vocabulary.languages.get(lang) ?? emptyLanguage(lang);
  const checked = ctx.analysis.checked!;
  const subject = (decl: A.Decl): string | undefined => {
    const params = decl.kind === 'modify' ? checked.pipelines.get(decl.name)?.decl.params : decl.kind === 'action' ? decl.params : undefined;
    const name = params?.[0]?.type.name;
    return name && ctx.analysis.declared!.kinds.has(name) ? name : undefined;
  };
  return new Renderer(l, ctx.vocabulary.glossary, ctx.analysis.declared!, subject);
}

export interface CheckOptions {
  /** Only these languages (default: every language the pack declares). */
  langs?: string[];
  /** Only these cards, by id. */
  cards?: string[];
}

export function checkCards(ctx: TextContext, options: CheckOptions = {}): TextReport {
  const declared = ctx.analysis.declared!;
  const languages = (options.langs?.length ? options.langs : declared.manifest.languages).filter((l) => declared.manifest.languages.includes(l) || ctx.vocabulary.languages.has(l));
  const diagnostics: TextFinding[] = [...ctx.setup];
  const cards: CardTexts[] = [];
  const templateReported = new Set<string>();
  for (const card of ctx.cards) {
    if (options.cards && !options.cards.includes(card.entity.id)) continue;
    const at = locate({ code: '', message: '', at: card.entity.at }, declared.texts, ctx.options);
    const entry: CardTexts = { id: card.entity.id, kind: card.entity.kind, file: card.entity.file.path, line: at.line, langs: {} };
    for (const lang of languages) {
      const renderer = rendererFor(ctx, lang);
      const rendering = renderer.card(card.claims, card.entity);
      const findings: TextFinding[] = [];
      for (const m of rendering.missing) {
        const key = `${lang}:${m.key}`;
        if (templateReported.has(key)) continue;
        templateReported.add(key);
        const unit = card.units.find((u) => u.program.decls.includes(m.decl)) ?? card.units[0];
        const file = ctx.vocabulary.languages.get(lang)?.file?.path ?? `language/${lang}.yaml`;
        findings.push(
          finding(ctx, { code: 'TX0401', severity: 'warning', message: `no ${lang} template \`${m.key}\` to render this rule`, at: unit ? fragmentSpan(unit.fragment, m.span) : card.entity.at, hint: `add \`${m.key}\` to ${file}; meanwhile the rule is rendered plainly` }, card.entity.id, lang),
        );
      }
      findings.push(...checkCardText(ctx, card, lang, rendering.text, renderer));
      for (const c of card.claims) {
        if (!c.uncounted || templateReported.has(`unit:${c.uncounted}`)) continue;
        templateReported.add(`unit:${c.uncounted}`);
        const unit = unitOf(card, c);
        const file = ctx.vocabulary.glossary.file?.path ?? 'the glossary';
        findings.push(finding(ctx, { code: 'TX0402', severity: 'warning', message: `the glossary does not say what \`${c.uncounted}\` counts, so its numbers are matched with any unit of the texts`, at: ruleSpan(unit, c), hint: `add \`${c.uncounted}: <unit>\` under \`glossary.units\` in ${file}` }, card.entity.id, lang));
      }
      const text = card.entity.text[lang];
      const ok = !findings.some((f) => f.severity === 'error');
      entry.langs[lang] = { text, canonical: rendering.text, ok, findings };
      diagnostics.push(...findings);
    }
    cards.push(entry);
  }
  diagnostics.sort((a, b) => a.file.localeCompare(b.file) || a.offset - b.offset || a.lang.localeCompare(b.lang));
  return { ok: !diagnostics.some((d) => d.severity === 'error'), languages, cards, diagnostics };
}

/** One card in one language: its text read and compared with its rules. */
export function checkCardText(ctx: TextContext, card: Card, lang: string, canonicalCard: string, renderer = rendererFor(ctx, lang), textOverride?: string): TextFinding[] {
  const e = card.entity;
  const id = e.id;
  const text = textOverride ?? e.text[lang];
  const reader = ctx.readers.get(lang);
  if (text === undefined || text.trim() === '') {
    const at = e.text && Object.keys(e.text).length ? spanAt(e.file, [...e.path, 'text'], true) : e.at;
    return [finding(ctx, { code: 'TX0301', message: `the ${e.kind} \`${id}\` has no ${lang} text`, at, hint: `add \`${lang}:\` under \`text:\`; from its rules: “${canonicalCard}”` }, id, lang, { canonical: canonicalCard })];
  }
  if (!reader) return [];
  const reading = readText(text, reader, id);
  return findingsOf(ctx, card, lang, reading, renderer, textOverride !== undefined);
}

/** The claims of a text and of rules that disagree (the benchmark's inner loop: no positions, no messages). */
export function mismatches(ctx: TextContext, claims: RuleClaim[], text: TextClaim[], lang: string): Mismatch[] {
  const g = ctx.vocabulary.glossary;
  const d = ctx.analysis.declared!;
  const same = (a: string, b: string) => {
    const x = termClass(g, d, a);
    const y = termClass(g, d, b);
    return !!x && !!y && JSON.stringify(x) === JSON.stringify(y);
  };
  // A moment of the turn, and the one a rule picks, are for the text to say where its language has words to read them by.
  const lg = ctx.vocabulary.languages.get(lang);
  const unread = (c: RuleClaim) => (c.body.k === 'timing' && !lg?.timing.get(c.body.timing)?.read.length) || (c.body.k === 'chosen' && c.body.by !== 'first' && !lg?.chosen.get(c.body.by)?.length) || (c.body.k === 'another' && !lg?.another.length) || (c.body.k === 'relation' && !lg?.relations.get(c.body.relation)?.length) || (c.body.k === 'per' && !lg?.forEach.get(c.body.kind)?.length);
  const said = claims.map((c) => (c.required && unread(c) ? { ...c, required: false } : c));
  const waived = (effect: string) => [...g.effects].filter(([n, id]) => id === effect && /\.(less|waived)$/.test(n)).map(([n]) => n.slice(0, n.lastIndexOf('.')));
  return compareClaims(said, text, same, waived);
}

function findingsOf(ctx: TextContext, card: Card, lang: string, reading: TextReading, renderer: Renderer, overridden: boolean): TextFinding[] {
  const e = card.entity;
  const d = ctx.analysis.declared!;
  const frag = overridden ? undefined : fragmentOf(e.file, [...e.path, 'text', lang]);
  const textAt = (t: { start: number; end: number }): FileSpan => (frag ? fragmentSpan(frag, t) : spanAt(e.file, [...e.path, 'text', lang]));
  const out: TextFinding[] = [];
  const texts = d.texts;
  const ruleInfo = (r: RuleClaim) => {
    const unit = unitOf(card, r);
    const at = locate({ code: '', message: '', at: ruleSpan(unit, r) }, texts, ctx.options);
    return { file: at.file, line: at.line, column: at.column, endLine: at.endLine, endColumn: at.endColumn, source: unit.fragment.text.slice(r.span.start, r.span.end) };
  };
  const canonical = (r: RuleClaim) => renderer.claim(r, card.claims);
  const unitName = (u?: string) => (u ? ` ${u}` : '');
  for (const m of mismatches(ctx, card.claims, reading.claims, lang)) {
    const t = m.text;
    const r = m.rule;
    const rule = r ? ruleInfo(r) : undefined;
    const extra: Partial<TextFinding> = { words: t?.words, rule, canonical: r ? canonical(r) : undefined };
    if (m.code === 'TX0102' && !r) {
      out.push(
        finding(
          ctx,
          {
            code: 'TX0102',
            message: `the ${lang} text excepts “${t!.words}” but also says “${m.term!.words}”: the same term, both ways`,
            at: textAt(t!),
            hint: `one of the two is a slip: the rules read, in ${lang}: “${renderer.card(card.claims, card.entity).text}”`,
          },
          e.id,
          lang,
          { words: t!.words },
        ),
      );
      continue;
    }
    switch (m.code) {
      case 'TX0101':
      case 'TX0102':
      case 'TX0103':
        out.push(
          finding(
            ctx,
            {
              code: m.code,
              message: `the ${lang} text says “${t!.words}” (${describeClaim(t!.body)}), but the rules say ${describeClaim(r!.body)}: \`${rule!.source}\``,
              at: textAt(t!),
              hint: `the rules read, in ${lang}: “${extra.canonical}”; correct the text, or the rule at ${rule!.file}:${rule!.line}:${rule!.column} if the text is right`,
            },
            e.id,
            lang,
            extra,
          ),
        );
        break;
      case 'TX0104': {
        const said = (m.term!.body as { term: string }).term;
        const given = r!.guards!.filter((g) => g !== said);
        out.push(
          finding(
            ctx,
            {
              code: 'TX0104',
              message: `the ${lang} text says “${t!.words}” with “${m.term!.words}”, but the rules give ${describeClaim(r!.body)} with ${given.map((g) => `\`${g}\``).join(' or ')}: \`${rule!.source}\``,
              at: textAt(t!),
              hint: `the rules read, in ${lang}: “${extra.canonical}”; say the number with the right term, or correct the condition at ${rule!.file}:${rule!.line}:${rule!.column} if the text is right`,
            },
            e.id,
            lang,
            extra,
          ),
        );
        break;
      }
      case 'TX0201': {
        const others = m.others ?? [];
        if (t!.body.k === 'relation' && r) {
          const canonical = renderer.card(card.claims, card.entity).text;
          const asked = (r.body as { relation: string }).relation;
          const turned = asked.startsWith('not.') ? `what the rules ask is not so (\`not ${asked.slice(4)}\`)` : `the rules ask it to be so (\`${asked}\`)`;
          out.push(finding(ctx, { code: 'TX0201', message: `the ${lang} text says “${t!.words}”, the opposite of the rules: ${turned}: \`${rule!.source}\``, at: textAt(t!), hint: `the rules read, in ${lang}: “${canonical}”` }, e.id, lang, { ...extra, canonical }));
          break;
        }
        const what = t!.body.k === 'number' ? `what the rules give${unitName(t!.body.unit)}: ${[...new Set(others.map((o) => describeClaim(o.body)))].join(', ') || 'nothing'}` : t!.body.k === 'term' ? `the terms the rules name: ${[...new Set(card.claims.filter((c) => c.body.k === 'term').map((c) => describeClaim(c.body)))].join(', ') || 'none'}` : `the rules: ${[...new Set(others.map((o) => describeClaim(o.body)))].join(', ') || 'nothing of the kind'}`;
        out.push(
          finding(
            ctx,
            {
              code: 'TX0201',
              message: `the ${lang} text says “${t!.words}” (${describeClaim(t!.body)}), which the card's rules do not do`,
              at: textAt(t!),
              hint: `${what}; the rules read, in ${lang}: “${renderer.card(card.claims, card.entity).text}”`,
            },
            e.id,
            lang,
            { words: t!.words, canonical: renderer.card(card.claims, card.entity).text, rule: others[0] ? ruleInfo(others[0]) : undefined },
          ),
        );
        break;
      }
      case 'TX0105': {
        const m2 = (t!.body as { mode: string }).mode;
        const why = (r!.body as { mode: string }).mode === 'must' ? 'the rules make it mandatory' : m2 === 'cannot' ? 'the rules allow it' : 'the rules leave it to the player';
        out.push(finding(ctx, { code: 'TX0105', message: `the ${lang} text says “${t!.words}”, but ${why}: \`${rule!.source}\``, at: textAt(t!), hint: `the rules read, in ${lang}: “${renderer.card(card.claims, card.entity).text}”` }, e.id, lang, { ...extra, canonical: renderer.card(card.claims, card.entity).text }));
        break;
      }
      case 'TX0108': {
        const offered = (m.others ?? [r!]).map((o) => renderer.claim(o));
        out.push(finding(ctx, { code: 'TX0108', message: `the ${lang} text offers a choice of “${renderer.claim({ ...r!, body: t!.body })}”, but the rules offer ${offered.map((o) => `“${o}”`).join(' or ')}: \`${rule!.source}\``, at: textAt(t!), hint: `the rules read, in ${lang}: “${renderer.card(card.claims, card.entity).text}”` }, e.id, lang, { ...extra, canonical: renderer.card(card.claims, card.entity).text }));
        break;
      }
      case 'TX0109': {
        const canonical = renderer.card(card.claims, card.entity).text;
        const per = r ? `per ${r.body.k === 'number' ? r.perKind : (r.body as { kind: string }).kind}` : 'per nothing of the kind';
        if (t?.body.k === 'relation') {
          out.push(finding(ctx, { code: 'TX0109', message: `the ${lang} text counts only what is “${t.words}” something, but the rules count it ${per}, with no such relation${rule ? `: \`${rule.source}\`` : ''}`, at: textAt(t), hint: `the rules read, in ${lang}: “${canonical}”` }, e.id, lang, { words: t.words, canonical }));
          break;
        }
        out.push(
          t
            ? finding(ctx, { code: 'TX0109', message: `the ${lang} text counts it “${t.words}”, but the rules count it ${per}${rule ? `: \`${rule.source}\`` : ''}`, at: textAt(t), hint: `the rules read, in ${lang}: “${canonical}”` }, e.id, lang, { words: t.words, canonical })
            : finding(ctx, { code: 'TX0109', message: `the ${lang} text does not say what the count is per: the rules give it ${per} (\`${rule!.source}\`)`, at: ruleSpan(unitOf(card, r!), r!), hint: `say it in the ${lang} text, e.g. “${canonical}”` }, e.id, lang, { canonical }),
        );
        break;
      }
      case 'TX0106':
        if (r?.body.k === 'chosen') {
          const picked = renderer.claim(r);
          const canonical = renderer.card(card.claims, card.entity).text;
          out.push(
            t
              ? finding(ctx, { code: 'TX0106', message: `the ${lang} text names “${t.words}”, but the rules give it to ${describeClaim(r.body)} (“${picked}”): \`${rule!.source}\``, at: textAt(t), hint: `the rules read, in ${lang}: “${canonical}”` }, e.id, lang, { words: t.words, canonical })
              : finding(ctx, { code: 'TX0106', message: `the ${lang} text does not name who gets it: the rules give it to ${describeClaim(r.body)} (“${picked}”): \`${rule!.source}\``, at: ruleSpan(unitOf(card, r), r), hint: `say “${picked}” in the ${lang} text, e.g. “${canonical}”` }, e.id, lang, { canonical }),
          );
          break;
        }
        if (!t && r?.body.k === 'whose') {
          const canonical = renderer.card(card.claims, card.entity).text;
          out.push(finding(ctx, { code: 'TX0106', message: `the ${lang} text does not say whose it is put among: the rules offer only the card's own player's (\`${rule!.source}\`)`, at: ruleSpan(unitOf(card, r), r), hint: `say it in the ${lang} text, e.g. “${canonical}”` }, e.id, lang, { canonical }));
          break;
        }
        if (t!.body.k === 'whose' && r) {
          const asked = renderer.claim(r);
          out.push(finding(ctx, { code: 'TX0106', message: `the ${lang} text says “${t!.words}”, but the rules ask for ${r.body.k === 'whose' && r.body.whose === 'you' ? "the card's own player's" : "another player's"} (“${asked}”): \`${rule!.source}\``, at: textAt(t!), hint: `the rules read, in ${lang}: “${renderer.card(card.claims, card.entity).text}”` }, e.id, lang, { words: t!.words, canonical: renderer.card(card.claims, card.entity).text }));
          break;
        }
        if (t!.body.k === 'who' && r) {
          const whom = r.party === 'you' ? "the card's own player" : r.player ? `another player (\`${r.player}\`${wordsFor(languageOf(ctx, lang), r.player)})` : 'another player';
          out.push(finding(ctx, { code: 'TX0106', message: `the ${lang} text says “${t!.words}” of what the rules give ${whom}: “${renderer.claim(r, card.claims)}”`, at: textAt(t!), hint: `the rules read, in ${lang}: “${renderer.card(card.claims, card.entity).text}”` }, e.id, lang, { words: t!.words, canonical: renderer.card(card.claims, card.entity).text }));
          break;
        }
        out.push(finding(ctx, { code: 'TX0106', message: `the ${lang} text says “${t!.words}”, but the rules give it to the card's own player only (no rule of the card goes through every player)`, at: textAt(t!), hint: `the rules read, in ${lang}: “${renderer.card(card.claims, card.entity).text}”` }, e.id, lang, { words: t!.words, canonical: renderer.card(card.claims, card.entity).text }));
        break;
      case 'TX0107': {
        const lasts = renderer.claim(r!);
        out.push(
          t
            ? finding(ctx, { code: 'TX0107', message: `the ${lang} text says it lasts “${t.words}”, but the rules keep it “${lasts}”: \`${rule!.source}\` is cleared then`, at: textAt(t), hint: `the rules read, in ${lang}: “${renderer.card(card.claims, card.entity).text}”` }, e.id, lang, { ...extra, canonical: renderer.card(card.claims, card.entity).text })
            : finding(ctx, { code: 'TX0107', message: `the ${lang} text does not say how long it lasts: the rules keep \`${rule!.source}\` “${lasts}”`, at: ruleSpan(unitOf(card, r!), r!), hint: `say “${lasts}” in the ${lang} text, e.g. “${renderer.card(card.claims, card.entity).text}”` }, e.id, lang, { ...extra, words: undefined, canonical: renderer.card(card.claims, card.entity).text }),
        );
        break;
      }
      case 'TX0202': {
        // A count of the things with a related one that is so says it in the card's clause ("for each cell next to …").
        const near = r!.body.k === 'relation' && r!.relation?.terms ? r!.relation : undefined;
        // A choice among things that share a field with one of the rule ("on the same grid"), or stand in a relation to yours ("each adjacent cell"), says where its things are.
        const shared = r!.body.k === 'relation' && r!.ofChoice ? r!.body : undefined;
        const what = near
          ? `each \`${near.kind}\` counted must be \`${near.relation}\` to one that is ${near.terms!.map((t) => `\`${t}\``).join(' or ')}`
          : shared
            ? shared.relation.startsWith('same.')
              ? `each \`${shared.kind}\` the choice offers has the same \`${shared.relation.slice(5)}\``
              : `each \`${shared.kind}\` the choice offers must be \`${shared.relation}\` to yours`
            : describeClaim(r!.body);
        out.push(
          finding(
            ctx,
            {
              code: 'TX0202',
              message: `the rules say ${what} (\`${rule!.source}\`), which the ${lang} text does not say`,
              at: ruleSpan(unitOf(card, r!), r!),
              hint: `say it in the ${lang} text, e.g. “${near || shared ? renderer.card(card.claims, card.entity).text : extra.canonical}”`,
            },
            e.id,
            lang,
            { ...extra, words: undefined },
          ),
        );
        break;
      }
    }
  }
  const lg = ctx.vocabulary.languages.get(lang);
  const vocabularyWords = lg ? [...termIds(ctx.vocabulary.glossary, d).flatMap((id) => (lg.terms.get(id)?.read ?? []).map((p) => p.source)), ...[...d.entities.values()].map((x) => x.name[lang]).filter((x): x is string => !!x)] : [];
  for (const u of reading.unknown) {
    const guess = closest(u.word, vocabularyWords.map((w) => w.replace(/\*$/, '')));
    out.push(
      finding(
        ctx,
        {
          code: 'TX0302',
          severity: 'warning',
          message: `“${u.word}” looks like a game term, but it is no word of the pack's ${lang} glossary`,
          at: textAt(u),
          hint: guess ? `did you mean “${guess}”? Otherwise add it to \`terms\` (a game term) or \`words\` (another word) in ${lg?.file?.path ?? `the ${lang} language file`}` : `add it to \`terms\` (a game term) or \`words\` (another word) in ${lg?.file?.path ?? `the ${lang} language file`}`,
          fix: guess ? { replacement: guess, safe: false } : undefined,
        },
        e.id,
        lang,
        { words: u.word },
      ),
    );
  }
  return out;
}

/** Every card rendered in one language, as YAML a translator can polish and copy into the cards. */
export function draftTexts(ctx: TextContext, lang: string): { yaml: string; warnings: TextFinding[] } {
  const renderer = rendererFor(ctx, lang);
  const byFile = new Map<string, Array<{ id: string; text: string; other?: string }>>();
  const warnings: TextFinding[] = [];
  const d = ctx.analysis.declared!;
  const source = d.manifest.languages.find((l) => l !== lang);
  const file = ctx.vocabulary.languages.get(lang)?.file;
  if (!file) {
    const manifest = ctx.analysis.loaded?.manifest;
    warnings.push(
      finding(ctx, { code: 'TX0503', severity: 'warning', message: `the pack has no language file for \`${lang}\`: the draft says each rule plainly`, at: manifest ? spanAt(manifest, ['languages'], true) : { file: 'pack.yaml', start: 0, end: 0 }, hint: `add \`language/${lang}.yaml\` with \`language: { lang: ${lang}, … }\` (its units, terms, timing and templates), then draft again` }, '', lang),
    );
  }
  for (const card of ctx.cards) {
    const r = renderer.card(card.claims, card.entity);
    for (const m of file ? r.missing : []) {
      if (warnings.some((w) => w.message.includes(`\`${m.key}\``))) continue;
      const unit = card.units.find((u) => u.program.decls.includes(m.decl)) ?? card.units[0];
      warnings.push(finding(ctx, { code: 'TX0401', severity: 'warning', message: `no ${lang} template \`${m.key}\` to render this rule`, at: unit ? fragmentSpan(unit.fragment, m.span) : card.entity.at, hint: `add \`${m.key}\` to the ${lang} language file` }, card.entity.id, lang));
    }
    const list = byFile.get(card.entity.file.path) ?? [];
    list.push({ id: card.entity.id, text: r.text, other: source ? card.entity.text[source] : undefined });
    byFile.set(card.entity.file.path, list);
  }
  const q = (s: string) => JSON.stringify(s);
  const lines = [`# Draft ${lang} card texts of ${d.manifest.id}, rendered from the rules. Polish each one and copy it`, `# into the card's \`text: { ${lang}: … }\`; the ${source ?? 'other'} text is shown above each for reference.`];
  for (const [file, list] of byFile) {
    lines.push(`${q(file)}:`);
    for (const c of list) {
      if (c.other) lines.push(`  # ${source}: ${c.other.replace(/\n/g, ' ')}`);
      lines.push(`  ${c.id}: ${q(c.text)}`);
    }
  }
  return { yaml: lines.join('\n') + '\n', warnings };
}

/** Re-exports for tools: the reading of one text, the claims of one card. */
export { readText, makeReader } from './read.ts';
export { ruleClaims } from './claims.ts';
export { sameClass, termClass, termIds } from './language.ts';
export type { Language, Vocabulary } from './language.ts';
export type { TextReading } from './read.ts';

/** Used by `formatAmount` callers that hold only a language file. */
/** How a language names a player the rules name (`attacker` → “the attacker”), for a finding. */
function wordsFor(lang: Language, player: string): string {
  const words = player === 'each' ? lang.everyone : lang.players.get(player);
  return words?.length ? `: “${words[0].source}”` : '';
}

export function languageOf(ctx: TextContext, lang: string): Language {
  return ctx.vocabulary.languages.get(lang) ?? emptyLanguage(lang);
}
