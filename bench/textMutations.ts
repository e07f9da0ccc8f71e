/**
 * How we know the card text checker works: a mutation benchmark over every card of every shipped
 * pack (content/). Each mutation changes one number or one game term, either in a card's rules or
 * in one language's text, and we count how often the checker then flags the card. The unmutated
 * packs must raise no finding at all (no false alarm).
 *
 * Rule mutations: every number literal, action limit and game-term name of a card's rules, one at a
 * time (a number n becomes n + 1; a term becomes another term of its class that the card does not
 * use yet, or, when it uses them all, the next one: human ↔ wolf). Text mutations: every number and
 * every game term the text has, in each language. Every mutation counts toward the target. Two
 * kinds are also reported apart, because they are the hard ones: "silent" rule sites, where the
 * text says nothing about what changed (the checker can only catch them when the mutated rule
 * claims something a text must say, e.g. `tokens > 0` becoming `tokens > 1`), and swaps of two terms
 * the card already uses, caught only by pairing each term with its effect.
 *
 * Numbers that no printed card states (how many wisp walls are in the box) are data (`pieces: 9`),
 * not rule literals, so they are not rule mutations. Nor is the bound of a `loop max n`: the
 * language asks every loop for one so that every rule ends (docs/language.md, "Bounded iteration"),
 * and the cards' loops end by `break` (the bombs or the steps run out, the player stops); the bound
 * is a guard against a player stalling, which no printed card states and no text could. (Until
 * this was argued, two such bounds counted as misses: 100 in the Goblins' bombing, 20 in Onward to
 * Victory.)
 *
 * Everything is computed from one analysis per pack: mutations change the syntax tree or the text in
 * place and re-read only the card's claims, so the whole benchmark takes a second or two.
 */
import { join } from 'node:path';
import type * as A from '../dsl/ast.ts';
import { analyze } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { compatible, type RuleClaim } from '../compiler/text/claim.ts';
import { declExprs, ruleClaims, walkExpr, walkStmts } from '../compiler/text/claims.ts';
import { checkCards, mismatches, prepareTexts, type Card, type TextContext } from '../compiler/text/index.ts';
import { sameClass, termClass } from '../compiler/text/language.ts';
import { readText, type TextReading } from '../compiler/text/read.ts';
import { findPacks } from '../cli/packs.ts';

type Site =
  | { k: 'number'; node: A.NumberExpr; line: string }
  | { k: 'limit'; node: { times: number; span: A.Span }; line: string }
  | { k: 'term'; node: A.NameExpr; term: string; line: string };

export interface Outcome {
  card: string;
  where: 'rule' | 'text';
  lang?: string;
  kind: 'number' | 'term';
  what: string;
  counted: boolean;
  /** A term swapped for another the card already uses: reported apart, see below. */
  swap?: boolean;
  flagged: boolean;
  /** The rule's line, for a rule mutation. */
  line?: string;
}

function siteNodes(card: Card, ctx: TextContext): Site[] {
  const c = ctx.analysis.checked!;
  const g = ctx.vocabulary.glossary;
  const d = ctx.analysis.declared!;
  const sites: Site[] = [];
  for (const u of card.units) {
    const source = u.fragment.text;
    const line = (span: A.Span) => source.slice(source.lastIndexOf('\n', span.start - 1) + 1, source.indexOf('\n', span.start) < 0 ? undefined : source.indexOf('\n', span.start)).trim();
    for (const decl of u.program.decls) {
      if (decl.kind === 'action' && decl.limit) sites.push({ k: 'limit', node: decl.limit, line: line(decl.limit.span) });
      const bounds = new Set<A.Expr>();
      if (decl.kind === 'on' || decl.kind === 'action') walkStmts(decl.body.stmts, (s) => void (s.kind === 'loop' && bounds.add(s.max)));
      for (const e of declExprs(decl)) {
        if (bounds.has(e)) continue;
        walkExpr(e, (x) => {
          if (x.kind === 'number') sites.push({ k: 'number', node: x, line: line(x.span) });
          if (x.kind === 'name') {
            const r = c.names.get(x);
            if (r?.k === 'const' && typeof r.value === 'string' && termClass(g, d, r.value) && termClass(g, d, r.value)!.k !== 'field') sites.push({ k: 'term', node: x, term: r.value, line: line(x.span) });
          }
        });
      }
    }
  }
  return sites;
}

function claimsOf(ctx: TextContext, card: Card): RuleClaim[] {
  return card.units.flatMap((u) => ruleClaims(ctx.analysis.checked!, ctx.vocabulary.glossary, u));
}

function flagged(ctx: TextContext, claims: RuleClaim[], readings: Map<string, TextReading>): boolean {
  return [...readings].some(([lang, r]) => mismatches(ctx, claims, r.claims, lang).length > 0);
}

/** Does the text speak of this site: must say it, or a claim of the text rests on this site alone? */
function spoken(site: object, claims: RuleClaim[], readings: Map<string, TextReading>): boolean {
  const from = claims.filter((c) => c.sites.includes(site));
  if (from.some((c) => c.required)) return true;
  for (const r of readings.values()) {
    for (const t of r.claims) {
      if (t.negated || t.implicit) continue;
      const support = claims.filter((c) => compatible(t.body, c.body));
      if (support.length && support.every((c) => c.sites.includes(site))) return true;
    }
  }
  return false;
}

function benchmark(ctx: TextContext, cards: Card[]): Outcome[] {
  const out: Outcome[] = [];
  const d = ctx.analysis.declared!;
  const c = ctx.analysis.checked!;
  const g = ctx.vocabulary.glossary;
  const langs = [...ctx.readers.keys()].filter((l) => d.manifest.languages.includes(l));
  for (const card of cards) {
    const readings = new Map<string, TextReading>();
    for (const lang of langs) {
      const text = card.entity.text[lang];
      if (text !== undefined) readings.set(lang, readText(text, ctx.readers.get(lang)!, card.entity.id));
    }
    const base = claimsOf(ctx, card);
    const usedTerms = new Set<string>([
      ...base.flatMap((x) => (x.body.k === 'term' ? [x.body.term] : [])),
      ...[...readings.values()].flatMap((r) => r.claims.flatMap((x) => (x.body.k === 'term' ? [x.body.term] : []))),
    ]);

    // ── the rules ──
    for (const site of siteNodes(card, ctx)) {
      const counted = spoken(site.node, base, readings);
      if (site.k === 'number' || site.k === 'limit') {
        const node = site.node as { value?: number; times?: number };
        const key = site.k === 'number' ? 'value' : 'times';
        const was = node[key]!;
        node[key] = was + 1;
        out.push({ card: card.entity.id, where: 'rule', kind: 'number', what: `${site.k === 'limit' ? 'limit ' : ''}${was} → ${was + 1}`, counted, line: site.line, flagged: flagged(ctx, claimsOf(ctx, card), readings) });
        node[key] = was;
        continue;
      }
      const klass = sameClass(g, d, site.term);
      const fresh = klass.find((t) => t !== site.term && !usedTerms.has(t));
      const swapWith = fresh ?? klass[(klass.indexOf(site.term) + 1) % klass.length];
      if (!swapWith || swapWith === site.term) continue;
      const was = c.names.get(site.node)!;
      c.names.set(site.node, { k: 'const', value: swapWith });
      out.push({ card: card.entity.id, where: 'rule', kind: 'term', what: `${site.term} → ${swapWith}`, counted, swap: !fresh, line: site.line, flagged: flagged(ctx, claimsOf(ctx, card), readings) });
      c.names.set(site.node, was);
    }

    // ── the texts, one language at a time ──
    for (const [lang, reading] of readings) {
      const text = card.entity.text[lang]!;
      const reader = ctx.readers.get(lang)!;
      const lg = ctx.vocabulary.languages.get(lang)!;
      for (const s of reading.sites) {
        let replacement: string | undefined;
        let swap = false;
        if (s.k === 'number') {
          const n = (s.value as number) + 1;
          const timesWord = lg.times.find((t) => t.value === n)?.phrase.source;
          const isTimes = lg.times.some((t) => t.value === s.value && text.slice(s.start, s.end).toLowerCase().startsWith(t.phrase.source.toLowerCase())) || lg.timesWords.some((w) => text.slice(s.start, s.end).toLowerCase().endsWith(w.source.toLowerCase()));
          replacement = isTimes ? (timesWord ?? `${n} ${lg.timesWords[0]?.source ?? ''}`.trim()) : String(n);
        } else {
          const klass = sameClass(g, d, s.value as string);
          const fresh = klass.find((t) => t !== s.value && !usedTerms.has(t));
          swap = !fresh;
          const other = fresh ?? klass[(klass.indexOf(s.value as string) + 1) % klass.length];
          if (!other || other === s.value) continue;
          const reads = [...(lg.terms.get(other)?.read ?? []).map((p) => p.source), d.entities.get(other)?.name[lang]].filter((x): x is string => !!x);
          const plain = reads.find((r) => !/[*|?…]/.test(r)) ?? reads[0]?.replace(/[*?]/g, '').split('|')[0];
          if (!plain) continue;
          replacement = plain;
        }
        const mutated = text.slice(0, s.start) + replacement + text.slice(s.end);
        const r = readText(mutated, reader, card.entity.id);
        const others = new Map(readings);
        others.set(lang, r);
        out.push({ card: card.entity.id, where: 'text', lang, kind: s.k, what: `“${text.slice(s.start, s.end)}” → “${replacement}”`, counted: true, swap, flagged: mismatches(ctx, base, r.claims, lang).length > 0 });
      }
    }
  }
  return out;
}

export const rate = (xs: Outcome[]) => (xs.length ? xs.filter((x) => x.flagged).length / xs.length : 1);
export const pct = (xs: Outcome[]) => `${(rate(xs) * 100).toFixed(1)}% (${xs.filter((x) => x.flagged).length}/${xs.length})`;

export interface PackRun {
  texts: number;
  alarms: string[];
  outcomes: Outcome[];
  report: string;
}

/** One pack's benchmark: the unmutated cards' findings (false alarms), then every single mutation. */
export function runPack(dir: string): PackRun {
  const started = performance.now();
  const files = readPackFolder(dir);
  const analysis = analyze(files, { dependencies: dependenciesOf(dir, files), lower: false });
  const ctx = prepareTexts(analysis, { dependencies: dependenciesOf(dir, files) });
  if (!ctx) throw new Error(analysis.diagnostics.map((x) => `${x.file}:${x.line}: ${x.message}`).join('\n'));
  const report = checkCards(ctx);
  let texts = 0;
  const alarms: string[] = [];
  for (const card of report.cards) {
    for (const [lang, l] of Object.entries(card.langs)) {
      texts++;
      if (!l.ok) alarms.push(...l.findings.map((f) => `${card.id}/${lang}: ${f.code} ${f.message}`));
    }
  }
  const own = ctx.cards.filter((c) => !c.entity.file.path.includes(':'));
  const outcomes = benchmark(ctx, own);
  const ms = performance.now() - started;
  const rule = outcomes.filter((o) => o.where === 'rule');
  const show = (o: Outcome) => `${o.card} ${o.where}${o.lang ? ` (${o.lang})` : ''}: ${o.what}${o.line ? `   in \`${o.line}\`` : ''}`;
  const lines = [
    `${ctx.analysis.declared!.manifest.id}: ${own.length} cards of its own, ${report.cards.length} checked in ${report.languages.join(', ')}; ${outcomes.length} mutations in ${ms.toFixed(0)} ms; detection ${pct(outcomes)}`,
    `  rule numbers   ${pct(rule.filter((o) => o.kind === 'number'))}`,
    `  rule terms     ${pct(rule.filter((o) => o.kind === 'term'))}`,
    ...report.languages.map((l) => `  text (${l})      numbers ${pct(outcomes.filter((o) => o.lang === l && o.kind === 'number'))}, terms ${pct(outcomes.filter((o) => o.lang === l && o.kind === 'term'))}`),
    `  of which silent rule sites (the text does not speak of them): ${pct(outcomes.filter((o) => !o.counted))}`,
    `  of which swaps with a term the card already uses: ${pct(outcomes.filter((o) => o.swap))}`,
    ...(process.env.TEXT_BENCH_VERBOSE ? outcomes.filter((o) => !o.flagged).map((o) => `    missed: ${show(o)}`) : []),
  ];
  return { texts, alarms, outcomes, report: lines.join('\n') };
}

/** Every shipped pack under `root/content`, benchmarked. */
export function runAllPacks(root: string): Map<string, PackRun> {
  const runs = new Map<string, PackRun>();
  for (const dir of findPacks(join(root, 'content'))) runs.set(dir, runPack(dir));
  return runs;
}

/** The summary over all packs: detection, what the texts speak about, false alarms, and every miss. */
export function mutationSummary(runs: Map<string, PackRun>, listMisses = true): string {
  const all = [...runs.values()].flatMap((r) => r.outcomes);
  const alarms = [...runs.values()].flatMap((r) => r.alarms);
  const texts = [...runs.values()].reduce((n, r) => n + r.texts, 0);
  const missed = all.filter((o) => !o.flagged);
  const spokenOf = all.filter((o) => o.counted && !o.swap);
  return [
    `text checker benchmark: detection ${pct(all)} of all single mutations (rules: ${pct(all.filter((o) => o.where === 'rule'))}; texts: ${pct(all.filter((o) => o.where === 'text'))})`,
    `  of mutations of what the texts speak about (neither silent nor a swap): ${pct(spokenOf)}`,
    `false alarms on the unmutated packs: ${alarms.length} in ${texts} card texts`,
    ...(missed.length && listMisses ? ['missed:', ...missed.map((m) => `  ${m.card} ${m.where}${m.lang ? ` (${m.lang})` : ''}: ${m.what}${m.line ? `   in \`${m.line}\`` : ''}`)] : []),
    ...alarms.map((a) => `false alarm: ${a}`),
  ].join('\n');
}
