/**
 * The realistic-mistakes benchmark of the card text checker: mistakes translators make (may for
 * must, a dropped "this turn", coins for tokens, at least for at most, "each player" for you, a
 * number word wrong, a clause the rules do not back, the options of a choice swapped), written on
 * the shipped cards in every language (`test/fixtures/text-mistakes/<pack>.yaml`), and faithful
 * rewordings that must not be flagged. Each entry replaces words of a card's shipped text; an entry
 * whose words are no longer in the text is an error, so the corpus cannot quietly rot.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { analyze } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { mismatches, prepareTexts, type TextContext } from '../compiler/text/index.ts';
import { readText } from '../compiler/text/read.ts';

interface Entry {
  card: string;
  lang: string;
  kind?: string;
  from: string;
  to: string;
}

export interface MistakeOutcome extends Entry {
  pack: string;
  /** A mistake: must be flagged; a faithful rewording: must not. */
  mistake: boolean;
  flagged: boolean;
  /** The codes of what the checker found. */
  codes: string[];
}

function contextOf(dir: string): TextContext {
  const files = readPackFolder(dir);
  const dependencies = dependenciesOf(dir, files);
  const ctx = prepareTexts(analyze(files, { dependencies, lower: false }), { dependencies });
  if (!ctx) throw new Error(`${dir} does not compile`);
  return ctx;
}

/** Every entry of every corpus file under `fixtures`, checked against its pack under `content`. */
export function runMistakes(root: string): MistakeOutcome[] {
  const fixtures = join(root, 'test', 'fixtures', 'text-mistakes');
  const out: MistakeOutcome[] = [];
  for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.yaml')).sort()) {
    const corpus = parse(readFileSync(join(fixtures, name), 'utf8')) as { pack: string; mistakes?: Entry[]; faithful?: Entry[] };
    const ctx = contextOf(join(root, 'content', corpus.pack));
    const entries = [...(corpus.mistakes ?? []).map((e) => ({ ...e, mistake: true })), ...(corpus.faithful ?? []).map((e) => ({ ...e, mistake: false }))];
    for (const e of entries) {
      const card = ctx.cards.find((c) => c.entity.id === e.card);
      const text = card?.entity.text[e.lang];
      if (!card || text === undefined) throw new Error(`${name}: ${corpus.pack} has no ${e.lang} text for \`${e.card}\``);
      if (!text.includes(e.from)) throw new Error(`${name}: the ${e.lang} text of \`${e.card}\` no longer says “${e.from}”`);
      const reading = readText(text.replace(e.from, e.to), ctx.readers.get(e.lang)!, card.entity.id);
      const found = mismatches(ctx, card.claims, reading.claims, e.lang);
      out.push({ ...e, pack: corpus.pack, flagged: found.length > 0, codes: [...new Set(found.map((m) => m.code))] });
    }
  }
  return out;
}

export function mistakesReport(outcomes: MistakeOutcome[], verbose = false): string {
  const mistakes = outcomes.filter((o) => o.mistake);
  const faithful = outcomes.filter((o) => !o.mistake);
  const pct = (xs: MistakeOutcome[]) => `${((xs.filter((x) => x.flagged).length / Math.max(1, xs.length)) * 100).toFixed(1)}% (${xs.filter((x) => x.flagged).length}/${xs.length})`;
  const kinds = [...new Set(mistakes.map((m) => m.kind ?? 'other'))].sort();
  const langs = [...new Set(mistakes.map((m) => m.lang))].sort();
  const show = (o: MistakeOutcome) => `${o.pack}/${o.card} (${o.lang}): “${o.from}” → “${o.to}”${o.codes.length ? ` [${o.codes.join(', ')}]` : ''}`;
  return [
    `realistic mistakes: ${pct(mistakes)} caught; faithful rewordings: ${pct(faithful)} flagged`,
    `  by kind: ${kinds.map((k) => `${k} ${pct(mistakes.filter((m) => (m.kind ?? 'other') === k))}`).join(', ')}`,
    `  by language: ${langs.map((l) => `${l} ${pct(mistakes.filter((m) => m.lang === l))}`).join(', ')}`,
    ...mistakes.filter((m) => !m.flagged).map((m) => `  missed: ${show(m)}`),
    ...faithful.filter((m) => m.flagged).map((m) => `  false alarm: ${show(m)}`),
    ...(verbose ? mistakes.filter((m) => m.flagged).map((m) => `  caught: ${show(m)}`) : []),
  ].join('\n');
}
