/**
 * A draft says all a card does: every claim a text must make (each number an effect gives, each
 * effect no number says — a move, a card taken, a pile emptied), read back from the card's own
 * draft in every language of every shipped pack, is there, and the draft says nothing the rules do
 * not. An effect its rules have that a draft leaves out fails here, so an incomplete draft cannot
 * come back silently.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { analyze } from '../compiler/index.ts';
import { checkCardText, prepareTexts, rendererFor, type TextContext } from '../compiler/text/index.ts';

const content = join(import.meta.dirname, '..', 'content');

function contextOf(pack: string): TextContext {
  const dir = join(content, pack);
  const files = readPackFolder(dir);
  const dependencies = dependenciesOf(dir, files);
  const ctx = prepareTexts(analyze(files, { dependencies, lower: false }), { dependencies });
  if (!ctx) throw new Error(`${pack} does not compile`);
  return ctx;
}

/** Each card's draft in `lang`, checked as if it were the card's text: what is found, warnings too. */
function draftFindings(ctx: TextContext, lang: string): Array<{ card: string; draft: string; code: string; message: string }> {
  const renderer = rendererFor(ctx, lang);
  return ctx.cards.flatMap((card) => {
    const draft = renderer.card(card.claims, card.entity).text;
    return checkCardText(ctx, card, lang, draft, renderer, draft).map((f) => ({ card: card.entity.id, draft, code: f.code, message: f.message }));
  });
}

describe('a draft says all a card does', () => {
  for (const pack of ['smallworld-wow', 'smallworld-wow-teams', 'wotlk', 'wroth']) {
    it(`${pack}: no draft leaves out an effect of its card's rules`, () => {
      const ctx = contextOf(pack);
      const effects = ctx.cards.flatMap((c) => c.claims).filter((c) => c.required && c.body.k === 'effect');
      if (pack !== 'wroth') expect(effects.length, `${pack} has effects a text must say`).toBeGreaterThan(0);
      for (const lang of ctx.analysis.declared!.manifest.languages) {
        const left = draftFindings(ctx, lang).filter((f) => f.code === 'TX0202' && f.message.includes('effect'));
        expect(left, `${pack} ${lang}`).toEqual([]);
      }
    });
  }

  for (const pack of ['smallworld-wow', 'smallworld-wow-teams', 'wotlk', 'wroth']) {
    it(`${pack}: every card’s draft, in every language of the pack, agrees with its rules in full`, () => {
      const ctx = contextOf(pack);
      const langs = ctx.analysis.declared!.manifest.languages;
      expect(langs.length, `${pack} declares its languages`).toBeGreaterThan(1);
      for (const lang of langs) expect(draftFindings(ctx, lang), `${pack} ${lang}`).toEqual([]);
    });
  }

  it('an effect a draft leaves out is found: the draft of a card without its effect’s clause', () => {
    const ctx = contextOf('wotlk');
    const renderer = rendererFor(ctx, 'en');
    for (const [id, clause] of [
      ['gunshipSupport', ' and that hero may then fight there'],
      ['alexstraszasCleansing', ' and remove all ghouls from its space'],
      ['newAllies', 'Take up to 2 cards from the hero discard pile into your hand'],
      ['blessingOfTheLight', ', or a hero of your choice heals fully'],
    ] as const) {
      const card = ctx.cards.find((c) => c.entity.id === id)!;
      const draft = renderer.card(card.claims, card.entity).text;
      expect(draft, id).toContain(clause);
      const found = checkCardText(ctx, card, 'en', draft, renderer, draft.replace(clause, ''));
      expect(found.map((f) => f.code), `${id} without “${clause}”`).toContain('TX0202');
    }
  });
});
