/**
 * Card texts checked against the cards' rules (issue #5): rendering with plural forms, findings on
 * hand-made broken cards with their positions, bad input (no text, unknown words, missing
 * templates, broken language files), the `rulebook text` command, and every shipped pack passing.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, type SourceFile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { checkCards, checkPackTexts, draftTexts, formatAmount, languageOf, prepareTexts, type TextFinding } from '../compiler/text/index.ts';
import { findPacks } from '../cli/packs.ts';
import { rulebook } from './helpers/cli.ts';

const root = join(import.meta.dirname, '..');

// ─── a small pack of its own ───────────────────────────────────────────────

const manifest = `id: texts
version: 0.1.0
name: { en: Texts, pl: Teksty }
languages: [en, pl]
players: { min: 2, max: 2 }
`;

const game = `enums:
  terrain: [hills, mountains, forest]
kinds:
  region:
    props:
      terrain: terrain
    state:
      owner: player?
  card:
    roles:
      active: players where card == self
      resting: players where resting == self
  player:
    state:
      coins: number
      hand: number
      card: card?
      resting: card?
  game:
    state:
      deck: list<terrain>
entities:
  - region: r1
    terrain: hills
  - region: r2
    terrain: mountains
rules: |
  event turnStarted(p: player)
  event turnEnded(p: player)
  pipeline cost(r: region): number min 1 = 2
  pipeline bonus(p: player): number = 0

  action claim(r: region) "Claim {r}" {
    require r.owner == none else "{r} is taken"
    r.owner = me
    me.hand -= cost(r)
  }
  action pass "Pass" { }
  proc flood(r: region) {
    r.owner = none
  }

  flow {
    for p in players {
      turn p {
        emit turnStarted(p)
        offer p: claim, pass
        emit turnEnded(p)
      }
    }
  }
`;

const glossary = `glossary:
  units:
    coins: coin
    hand: token
    cost: token
    region: region
  terms:
    enums: [terrain]
    kinds: [card]
  effects:
    flooded: [flood]
  timing:
    endOfTurn: [turnEnded]
    startOfTurn: [turnStarted]
  conditions:
    resting: { role: resting }
`;

const en = `language:
  lang: en
  numbers: { one: 1, two: 2, three: 3 }
  if: [if, when]
  joins: [and, or]
  except: [except]
  times: { once: 1, twice: 2 }
  timesWords: [times]
  one: [a, an]
  per: { turn: ["per turn"] }
  units:
    coin: { read: ["coin*"], say: { one: coin, other: coins } }
    token: { read: ["token*"], say: { one: token, other: tokens } }
    region: { read: ["region*"], say: { one: region, other: regions } }
  terms:
    hills: { read: [Hills], say: { nom: a Hills region, bare: Hills region, count: { one: Hills, other: Hills } } }
    mountains: { read: [Mountains], say: { nom: a Mountains region, bare: Mountains region } }
    forest: { read: [Forest], say: { nom: a Forest region, bare: Forest region, count: { one: Forest, other: Forests } } }
  timing:
    endOfTurn: { read: ["at the end of … turn"], say: "At the end of your turn," }
    startOfTurn: { read: ["at the start of … turn"], say: "At the start of your turn," }
  conditions:
    resting: { read: [resting], say: "(also while resting)" }
  effects:
    flooded: { read: ["is flooded", "are flooded"] }
  directions:
    gain: { before: [receive, gain] }
    lose: { before: [pay] }
    fewer: { after: [fewer] }
    atLeast: { before: ["at least"] }
  words: [You, own]
  templates:
    sentence: { timed: "{timing} {clauses}.", plain: "{clauses}." }
    and: ", and "
    set: "{amount}"
    effect: { flooded: { do: "the region is flooded" } }
    gain: "you receive {amount}"
    gainPer: "you receive {amount} for each {per:bare}"
    lose: "you pay {amount}"
    fewer: "for {amount} fewer"
    min: "(at least {amount})"
    atLeast: "at least {amount}"
    about: "({terms})"
    times: { 1: once, other: "{n} times" }
    limit: { turn: "{times} per turn" }
    action: { claim: "you may take a region" }
    modify:
      cost:
        fewer: "you take {where} for {amount} fewer than normal"
`;

const pl = `language:
  lang: pl
  numbers: { jeden: 1, dwa: 2, trzy: 3 }
  if: [jeśli, gdy]
  joins: [i, albo]
  times: { raz: 1 }
  timesWords: [razy]
  per: { turn: ["na turę"] }
  units:
    coin:
      read: ["monet*", monecie]
      say:
        nom: { one: moneta, few: monety, many: monet, other: monety }
        acc: { one: monetę, few: monety, many: monet, other: monety }
    token:
      read: ["żeton*"]
      say:
        nom: { one: żeton, few: żetony, many: żetonów, other: żetonu }
    region: { read: ["region*"], say: { nom: { one: region, few: regiony, many: regionów, other: regionu } } }
  terms:
    hills: { read: [Wzgórz, Wzgórza], say: { nom: region Wzgórz, acc: region Wzgórz } }
    mountains: { read: [Gór, Góry], say: { nom: region Gór, acc: region Gór } }
    forest: { read: [Lasów, Las], say: { nom: region Lasów, acc: region Lasów } }
  timing:
    endOfTurn: { read: ["na koniec … tury"], say: "Na koniec swojej tury" }
    startOfTurn: { read: ["na początku … tury"], say: "Na początku swojej tury" }
  conditions:
    resting: { read: ["odpoczyn*"], say: "(także podczas odpoczynku)" }
  effects:
    flooded: { read: ["zostaje zalany", "zostają zalane"] }
  directions:
    gain: { before: ["otrzym*"] }
    lose: { before: ["płac*", "zapłać"] }
    fewer: { after: [mniej] }
    atLeast: { before: [przynajmniej] }
  words: [Ty]
  templates:
    sentence: { timed: "{timing} {clauses}.", plain: "{clauses}." }
    and: " i "
    set: "{amount}"
    effect: { flooded: { do: "region zostaje zalany" } }
    gain: "otrzymujesz {amount:acc}"
    gainPer: "otrzymujesz {amount:acc} za każdy {per:acc}"
    lose: "płacisz {amount:acc}"
    fewer: "płacąc {amount:acc} mniej"
    min: "(przynajmniej {amount:acc})"
    atLeast: "przynajmniej {amount:acc}"
    about: "({terms})"
    times: { 1: raz, other: "{n} razy" }
    limit: { turn: "{times} na turę" }
    action: { claim: "możesz zająć region" }
    modify:
      cost:
        fewer: "zajmujesz {where:acc}, płacąc {amount:acc} mniej niż normalnie"
`;

/** A card in `cards.yaml`: its texts (flow mapping, one line each) and its rules. */
function card(id: string, texts: Record<string, string>, rules: string): string {
  const t = Object.entries(texts)
    .map(([l, x]) => `      ${l}: ${JSON.stringify(x)}`)
    .join('\n');
  return `  - card: ${id}\n    name: { en: ${id}, pl: ${id} }\n${t ? `    text:\n${t}\n` : ''}    rules: |\n${rules
    .trim()
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n')}\n`;
}

function pack(cards: string[], extra: Partial<Record<string, string>> = {}): SourceFile[] {
  const files: Record<string, string> = {
    'pack.yaml': manifest,
    'game.yaml': game,
    'language/glossary.yaml': glossary,
    'language/en.yaml': en,
    'language/pl.yaml': pl,
    'cards.yaml': `entities:\n${cards.join('')}`,
    ...extra,
  };
  return Object.entries(files)
    .filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '')
    .map(([path, text]) => ({ path, text }));
}

const miner = (texts: Record<string, string>) =>
  card('miner', texts, `on turnEnded(p) when p == holder {\n  holder.coins += count(regions where owner == holder and terrain == mountains)\n}`);

const MINER_EN = 'At the end of your turn, you receive 1 coin for each Mountains region you own.';
const MINER_PL = 'Na koniec swojej tury otrzymujesz 1 monetę za każdy region Gór, który posiadasz.';

/** Line and column (1-based) of the `nth` occurrence of `needle` in a file of the pack. */
function at(files: SourceFile[], path: string, needle: string, nth = 0): { line: number; column: number } {
  const text = files.find((f) => f.path === path)!.text;
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  expect(i, `${needle} in ${path}`).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, i).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function only(findings: TextFinding[], code: string): TextFinding[] {
  return findings.filter((f) => f.code === code);
}

// ─── rendering ─────────────────────────────────────────────────────────────

describe('rendering', () => {
  const sw = (() => {
    const dir = join(root, 'content/smallworld-wow');
    const files = readPackFolder(dir);
    return prepareTexts(analyze(files, { lower: false }))!;
  })();

  it('says a number with the plural form its language wants (Intl.PluralRules)', () => {
    const plLang = languageOf(sw, 'pl');
    expect(formatAmount(1, 'coin', plLang)).toBe('1 moneta zwycięstwa');
    expect(formatAmount(2, 'coin', plLang)).toBe('2 monety zwycięstwa');
    expect(formatAmount(5, 'coin', plLang)).toBe('5 monet zwycięstwa');
    expect(formatAmount(22, 'coin', plLang)).toBe('22 monety zwycięstwa');
    expect(formatAmount(12, 'coin', plLang)).toBe('12 monet zwycięstwa');
    expect(formatAmount(1, 'coin', plLang, 'acc')).toBe('1 monetę zwycięstwa');
    expect(formatAmount(2, 'token', plLang)).toBe('2 żetony Rasy');
    expect(formatAmount(5, 'token', plLang, 'gen')).toBe('5 żetonów Rasy');
    const enLang = languageOf(sw, 'en');
    expect(formatAmount(1, 'coin', enLang)).toBe('1 victory coin');
    expect(formatAmount(2, 'coin', enLang)).toBe('2 victory coins');
  });

  it('renders a card from its rules in each language, with the pack’s glossary terms', () => {
    const dwarves = sw.cards.find((c) => c.entity.id === 'dwarves')!;
    const report = checkPackTexts(readPackFolder(join(root, 'content/smallworld-wow')), { langs: ['pl', 'en'] });
    const d = report.cards.find((c) => c.id === 'dwarves')!;
    expect(d.langs.pl.canonical).toBe('Podbijasz region Gór, płacąc 2 żetony Rasy mniej niż normalnie (musisz zapłacić przynajmniej 1 żeton Rasy).');
    expect(d.langs.en.canonical).toBe('You conquer a Mountains region for 2 race tokens fewer than normal (you must pay at least 1 race token).');
    expect(dwarves.claims.some((c) => c.body.k === 'term' && c.body.term === 'mountains' && c.required)).toBe(true);
    const elves = report.cards.find((c) => c.id === 'bloodElves')!;
    expect(elves.langs.pl.canonical).toBe('Na koniec swojej tury otrzymujesz 1 monetę zwycięstwa za każdy region magiczny.');
    expect(elves.langs.en.canonical).toBe('At the end of your turn, you receive 1 victory coin for each magic region.');
  });

  it('renders the small pack’s plural forms in Polish', () => {
    const files = pack([card('hoard', { en: 'At the end of your turn, you receive 5 coins.', pl: 'Na koniec swojej tury otrzymujesz 5 monet.' }, 'on turnEnded(p) when p == holder {\n  holder.coins += 5\n}')]);
    const r = checkPackTexts(files);
    expect(r.diagnostics).toEqual([]);
    expect(r.cards[0].langs.pl.canonical).toBe('Na koniec swojej tury otrzymujesz 5 monet.');
    expect(r.cards[0].langs.en.canonical).toBe('At the end of your turn, you receive 5 coins.');
  });
});

// ─── findings ──────────────────────────────────────────────────────────────

describe('findings on broken cards, with their positions', () => {
  it('accepts a card whose texts say what its rules do', () => {
    const r = checkPackTexts(pack([miner({ en: MINER_EN, pl: MINER_PL })]));
    expect(r.diagnostics).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.cards[0].langs.en.ok && r.cards[0].langs.pl.ok).toBe(true);
  });

  it('TX0101: a number that differs, at the text’s words and the rule’s span, with the rendering beside it', () => {
    const files = pack([miner({ en: MINER_EN.replace('1 coin', '2 coins'), pl: MINER_PL.replace('1 monetę', '3 monety') })]);
    const r = checkPackTexts(files);
    const [e, p] = [only(r.diagnostics, 'TX0101').find((f) => f.lang === 'en')!, only(r.diagnostics, 'TX0101').find((f) => f.lang === 'pl')!];
    expect(e).toMatchObject({ card: 'miner', file: 'cards.yaml', words: '2 coins', ...at(files, 'cards.yaml', '2 coins') });
    expect(e.rule).toMatchObject({ file: 'cards.yaml', ...at(files, 'cards.yaml', 'count(regions') });
    expect(e.canonical).toBe('you receive 1 coin for each Mountains region');
    expect(p).toMatchObject({ words: '3 monety', ...at(files, 'cards.yaml', '3 monety') });
    expect(p.canonical).toBe('otrzymujesz 1 monetę za każdy region Gór');
    expect(r.ok).toBe(false);
  });

  it('TX0102: a term that differs (Hills where the rules say mountains)', () => {
    const files = pack([miner({ en: MINER_EN.replace('Mountains', 'Hills'), pl: MINER_PL })]);
    const [f] = only(checkPackTexts(files).diagnostics, 'TX0102');
    expect(f).toMatchObject({ lang: 'en', words: 'Hills', ...at(files, 'cards.yaml', 'Hills') });
    expect(f.rule!.source).toBe('mountains');
  });

  it('TX0103 and TX0201: a moment of the turn and a claim the rules do not make', () => {
    const files = pack([miner({ en: MINER_EN.replace('At the end', 'At the start').replace('for each', 'twice per turn for each'), pl: MINER_PL })]);
    const r = checkPackTexts(files);
    expect(only(r.diagnostics, 'TX0103')[0]).toMatchObject({ words: 'At the start of your turn', ...at(files, 'cards.yaml', 'At the start') });
    expect(only(r.diagnostics, 'TX0201')[0]).toMatchObject({ words: 'twice per turn', ...at(files, 'cards.yaml', 'twice') });
  });

  it('TX0202: behaviour the text omits, at the rule, in every language that omits it', () => {
    const files = pack([
      card(
        'toll',
        { en: 'You take a Mountains region for 1 token fewer than normal.', pl: 'Zajmujesz region Gór, płacąc 1 żeton mniej niż normalnie.' },
        'modify cost(r) when r.terrain == mountains = value - 1\non turnEnded(p) when p == holder {\n  holder.coins += 2\n}',
      ),
    ]);
    const r = checkPackTexts(files);
    const omitted = only(r.diagnostics, 'TX0202').filter((f) => !f.message.includes('timing'));
    expect(omitted.map((f) => f.lang).sort()).toEqual(['en', 'pl']);
    expect(omitted[0]).toMatchObject({ file: 'cards.yaml', ...at(files, 'cards.yaml', '2\n') });
    expect(omitted.find((f) => f.lang === 'pl')!.canonical).toBe('otrzymujesz 2 monety');
    expect(r.cards[0].langs.en.canonical).toBe('You take a Mountains region for 1 token fewer than normal (at least 1 token). At the end of your turn, you receive 2 coins.');
  });

  it('TX0104: a number said with another term than the one its condition names', () => {
    const rules = 'on turnEnded(p) when p == holder {\n  for r in regions where owner == holder {\n    if r.terrain == hills {\n      holder.coins += 2\n    }\n    if r.terrain == forest {\n      holder.coins += 1\n    }\n  }\n}';
    const right = { en: 'At the end of your turn, you receive 2 coins for each Hills region and 1 coin for each Forest region.', pl: 'Na koniec swojej tury otrzymujesz 2 monety za każdy region Wzgórz i 1 monetę za każdy region Lasów.' };
    expect(checkPackTexts(pack([card('grower', right, rules)])).diagnostics).toEqual([]);
    // The same numbers and the same terms, each number with the other term: sets of claims agree, pairs do not.
    const swapped = { en: 'At the end of your turn, you receive 2 coins for each Forest region and 1 coin for each Hills region.', pl: right.pl };
    const files = pack([card('grower', swapped, rules)]);
    const found = only(checkPackTexts(files).diagnostics, 'TX0104');
    expect(found.map((f) => f.lang)).toEqual(['en', 'en']);
    expect(found[0]).toMatchObject({ words: '2 coins', ...at(files, 'cards.yaml', '2 coins') });
    expect(found[0].message).toContain('`hills`');
    expect(found[0].rule!.source).toBe('2');
  });

  it('reads conditions: a threshold the rules compare with is said in a condition, “any” needs no number', () => {
    const rules = 'on turnEnded(p) when p == holder {\n  if count(regions where owner == holder) >= 2 {\n    holder.coins += 1\n  }\n}';
    const said = { en: 'At the end of your turn, if you own at least 2 regions, you receive 1 coin.', pl: 'Na koniec swojej tury, jeśli masz przynajmniej 2 regiony, otrzymujesz 1 monetę.' };
    expect(checkPackTexts(pack([card('landlord', said, rules)])).diagnostics).toEqual([]);
    // Not said: the threshold is behaviour the text omits.
    const unsaid = pack([card('landlord', { en: 'At the end of your turn, you receive 1 coin.', pl: said.pl }, rules)]);
    expect(only(checkPackTexts(unsaid).diagnostics, 'TX0202').map((f) => f.rule!.source)).toEqual(['2']);
    // `> 0` is "any": a text need not say a number for it.
    const any = rules.replace('>= 2', '> 0');
    expect(checkPackTexts(pack([card('landlord', { en: 'At the end of your turn, if you own a region, you receive 1 coin.', pl: 'Na koniec swojej tury, jeśli masz region, otrzymujesz 1 monetę.' }, any)])).diagnostics).toEqual([]);
  });

  it('TX0104: an effect said with another term than the one its condition names', () => {
    const rules = 'on turnEnded(p) when p == holder {\n  for r in regions {\n    if r.terrain == hills {\n      flood(r)\n    }\n    if r.terrain == forest {\n      r.owner = holder\n    }\n  }\n}';
    const right = { en: 'At the end of your turn, every Hills region is flooded and you take every Forest region.', pl: 'Na koniec swojej tury każdy region Wzgórz zostaje zalany i zajmujesz każdy region Lasów.' };
    expect(checkPackTexts(pack([card('tide', right, rules)])).diagnostics).toEqual([]);
    const swapped = pack([card('tide', { en: 'At the end of your turn, every Forest region is flooded and you take every Hills region.', pl: right.pl }, rules)]);
    const [f] = only(checkPackTexts(swapped).diagnostics, 'TX0104');
    expect(f).toMatchObject({ lang: 'en', words: 'is flooded', ...at(swapped, 'cards.yaml', 'is flooded') });
    expect(f.message).toContain('`hills`');
  });

  it('TX0102: a term a text both says and excepts', () => {
    const files = pack([miner({ en: 'At the end of your turn, you receive 1 coin for each Mountains region you own (except Mountains regions).', pl: MINER_PL })]);
    const [f] = only(checkPackTexts(files).diagnostics, 'TX0102');
    expect(f).toMatchObject({ lang: 'en', words: 'Mountains', ...at(files, 'cards.yaml', 'Mountains', 1) });
    expect(f.message).toContain('both ways');
  });

  it('a stack of game terms is described by what it holds of each', () => {
    const rules = 'on turnStarted(p) when p == holder {\n  game.deck = [hills, hills, forest]\n  shuffle game.deck\n}';
    const said = { en: 'At the start of your turn, shuffle the deck: 2 Hills and 1 Forest.', pl: 'Na początku swojej tury potasuj talię: 2 Wzgórza i 1 Las.' };
    expect(checkPackTexts(pack([card('deck', said, rules)])).diagnostics).toEqual([]);
    const wrong = pack([card('deck', { en: 'At the start of your turn, shuffle the deck: 1 Hills and 2 Forest.', pl: said.pl }, rules)]);
    expect(only(checkPackTexts(wrong).diagnostics, 'TX0101').map((f) => f.words).sort()).toEqual(['1 Hills', '2 Forest']);
  });

  it('TX0202: a text that omits when a trigger gives what it gives', () => {
    const files = pack([miner({ en: 'You receive 1 coin for each Mountains region you own.', pl: MINER_PL })]);
    const [f] = only(checkPackTexts(files).diagnostics, 'TX0202');
    expect(f).toMatchObject({ lang: 'en', ...at(files, 'cards.yaml', 'turnEnded') });
    expect(f.message).toContain('timing `endOfTurn`');
    expect(f.hint).toContain('At the end of your turn');
  });

  it('checks limits, roles and directions', () => {
    const rules = 'action grab(r: region) "Grab {r}" limit 2 per turn with claim while active, resting {\n  me.coins -= 1\n}';
    const good = pack([card('grabber', { en: 'Twice per turn you may pay 1 coin to grab a region, also while resting.', pl: '2 razy na turę możesz zapłacić 1 monetę, by chwycić region, także podczas odpoczynku.' }, rules)]);
    expect(checkPackTexts(good).diagnostics).toEqual([]);
    const bad = pack([card('grabber', { en: 'Once per turn you may receive 1 coin to grab a region.', pl: '2 razy na turę możesz zapłacić 1 monetę, by chwycić region, także podczas odpoczynku.' }, rules)]);
    const r = checkPackTexts(bad).diagnostics.filter((f) => f.lang === 'en');
    expect(r.map((f) => f.code).sort()).toEqual(['TX0101', 'TX0101', 'TX0202']);
    expect(r.find((f) => f.words === 'Once per turn')!.rule!.source).toBe('limit 2 per turn');
    expect(r.find((f) => f.words === '1 coin')!.message).toContain('(gain)');
    expect(r.find((f) => f.code === 'TX0202')!.message).toContain('resting');
  });
});

// ─── bad input ─────────────────────────────────────────────────────────────

describe('bad input: a diagnostic with its position, never a crash', () => {
  it('TX0301: a card with no text in a declared language, with the rendering as a fallback', () => {
    const files = pack([miner({ en: MINER_EN })]);
    const [f] = only(checkPackTexts(files).diagnostics, 'TX0301');
    expect(f).toMatchObject({ card: 'miner', lang: 'pl', file: 'cards.yaml', ...at(files, 'cards.yaml', 'text:') });
    expect(f.canonical).toBe('Na koniec swojej tury otrzymujesz 1 monetę za każdy region Gór.');
    expect(f.hint).toContain('Na koniec swojej tury otrzymujesz 1 monetę za każdy region Gór.');
  });

  it('TX0302: a word that looks like a game term but is none, with the closest term', () => {
    const files = pack([miner({ en: MINER_EN.replace('Mountains region', 'Mountains region of the Mountians'), pl: MINER_PL })]);
    const [f] = only(checkPackTexts(files).diagnostics, 'TX0302');
    expect(f).toMatchObject({ severity: 'warning', words: 'Mountians', ...at(files, 'cards.yaml', 'Mountians') });
    expect(f.hint).toContain('Mountains');
    expect(f.fix).toEqual({ replacement: 'Mountains', safe: false });
  });

  it('TX0401: a template missing for a construct, at the rule, and a plain rendering instead', () => {
    const files = pack([card('taxman', { en: 'At the start of your turn, you pay 2 coins.', pl: 'Na początku swojej tury płacisz 2 monety.' }, 'on turnStarted(p) when p == holder {\n  holder.coins -= 2\n}')], {
      'language/pl.yaml': pl.replace('    lose: "płacisz {amount:acc}"\n', ''),
    });
    const r = checkPackTexts(files);
    const [f] = only(r.diagnostics, 'TX0401');
    expect(f).toMatchObject({ severity: 'warning', lang: 'pl', ...at(files, 'cards.yaml', '2\n') });
    expect(f.message).toContain('templates.lose');
    expect(r.cards[0].langs.pl.canonical).toBe('Na początku swojej tury −2 monety.');
    expect(r.ok).toBe(true);
  });

  it('TX0402: a pipeline the glossary does not count: its numbers match any unit, with a warning at the rule', () => {
    const files = pack([card('bonus', { en: 'You gain 2 coins.', pl: 'Otrzymujesz 2 monety.' }, 'modify bonus(p) = value + 2')]);
    const r = checkPackTexts(files);
    expect(r.ok).toBe(true);
    const [f] = only(r.diagnostics, 'TX0402');
    expect(f).toMatchObject({ severity: 'warning', ...at(files, 'cards.yaml', '2\n') });
    expect(f.hint).toContain('`bonus: <unit>`');
    const wrong = checkPackTexts(pack([card('bonus', { en: 'You gain 3 coins.', pl: 'Otrzymujesz 2 monety.' }, 'modify bonus(p) = value + 2')]));
    expect(only(wrong.diagnostics, 'TX0101').map((x) => x.lang)).toEqual(['en']);
  });

  it('TX0501, TX0502, TX0503: language files naming what the pack does not have', () => {
    const files = pack([miner({ en: MINER_EN, pl: MINER_PL })], {
      'language/glossary.yaml': glossary.replace('    hand: token', '    hands: token'),
      'language/en.yaml': en.replace('    coin: { read', '    con: { read'),
      'language/pl.yaml': '',
    });
    const r = checkPackTexts(files);
    expect(only(r.diagnostics, 'TX0501')[0]).toMatchObject({ file: 'language/glossary.yaml', ...at(files, 'language/glossary.yaml', 'hands') });
    expect(only(r.diagnostics, 'TX0501')[0].hint).toContain('hand');
    expect(only(r.diagnostics, 'TX0502')[0]).toMatchObject({ file: 'language/en.yaml', ...at(files, 'language/en.yaml', 'con:') });
    expect(only(r.diagnostics, 'TX0503')[0]).toMatchObject({ file: 'pack.yaml', message: expect.stringContaining('`pl`') });
  });

  it('a pack that does not compile gives its compile errors, not a crash', () => {
    const r = checkPackTexts(pack([card('oops', { en: 'x' }, 'on turnEnded(p) { holder.coinz += 1 }')]));
    expect(r.ok).toBe(false);
    expect(r.diagnostics.some((d) => d.code.startsWith('RB'))).toBe(true);
  });

  it('survives any text and any language file values (property)', () => {
    const base = pack([miner({ en: MINER_EN, pl: MINER_PL })]);
    const analysis = analyze(base, { lower: false });
    const ctx = prepareTexts(analysis)!;
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom('en', 'pl'), (text, lang) => {
        const card = ctx.cards[0];
        // The compiler keeps the YAML's values frozen: the card takes a copy with the text swapped.
        const was = card.entity;
        card.entity = { ...was, text: { ...was.text, [lang]: text } };
        try {
          draftTexts(ctx, lang);
          const r = checkCards(ctx);
          return r.cards[0].langs[lang].findings.every((f) => f.line >= 1 && f.column >= 1 && f.file === 'cards.yaml');
        } finally {
          card.entity = was;
        }
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.constant('{ read: [, ] }'), fc.constant('[1, 2]'), fc.constant('"…"')), fc.constantFrom('numbers', 'units', 'terms', 'templates', 'directions', 'transfers', 'words'), (value, key) => {
        const broken = en.replace(new RegExp(`^  ${key}:.*$`, 'm'), `  ${key}: ${String(value).replace(/\n/g, ' ')}`);
        const r = checkPackTexts(pack([miner({ en: MINER_EN, pl: MINER_PL })], { 'language/en.yaml': broken }));
        return Array.isArray(r.diagnostics);
      }),
      { numRuns: 100 },
    );
  });
});

// ─── the shipped packs, the CLI, the worker ────────────────────────────────

describe('shipped packs and the command line', () => {
  it('every shipped pack passes, in every language it declares', () => {
    for (const dir of findPacks(join(root, 'content'))) {
      const files = readPackFolder(dir);
      const r = checkPackTexts(files, { dependencies: dependenciesOf(dir, files) });
      expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([]);
      expect(r.ok).toBe(true);
      expect(r.languages.length).toBeGreaterThan(1);
    }
  });

  function writePack(files: SourceFile[]): string {
    const dir = mkdtempSync(join(tmpdir(), 'rulebook-text-'));
    for (const f of files) {
      mkdirSync(join(dir, f.path, '..'), { recursive: true });
      writeFileSync(join(dir, f.path), f.text);
    }
    return dir;
  }

  it('`rulebook text PACK` prints each finding like a compiler and exits 1; `--json` gives the report', async () => {
    const dir = writePack(pack([miner({ en: MINER_EN.replace('1 coin', '2 coins'), pl: MINER_PL })]));
    try {
      const a = await rulebook(['text', dir]);
      expect(a.code).toBe(1);
      const text = a.out;
      expect(text).toContain('cards.yaml:');
      expect(text).toContain('error TX0101');
      expect(text).toContain('^^^^^^^');
      expect(text).toContain('from the rules (en): “you receive 1 coin for each Mountains region”');
      expect(text).toMatch(/1 card in en, pl: 1 error on 1 card/);
      const b = await rulebook(['text', dir, '--lang', 'pl', '--json']);
      expect(b.code).toBe(0);
      const json = JSON.parse(b.out);
      expect(json.ok).toBe(true);
      expect(json.packs[0].cards[0].langs.pl.canonical).toBe('Na koniec swojej tury otrzymujesz 1 monetę za każdy region Gór.');
      const c = await rulebook(['text', dir, '--json']);
      expect(c.code).toBe(1);
      const finding = JSON.parse(c.out).packs[0].diagnostics[0];
      expect(finding).toMatchObject({ code: 'TX0101', lang: 'en', card: 'miner', words: '2 coins' });
      expect(finding.file.endsWith('cards.yaml')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`rulebook text --draft LANG PACK` writes a draft translation from the renderer', async () => {
    const dir = writePack(pack([miner({ en: MINER_EN, pl: MINER_PL })]));
    try {
      const a = await rulebook(['text', '--draft', 'pl', dir]);
      expect(a.code).toBe(0);
      expect(a.out).toContain('miner: "Na koniec swojej tury otrzymujesz 1 monetę za każdy region Gór."');
      const out = join(dir, 'draft.yaml');
      const b = await rulebook(['text', '--draft', 'en', dir, '--out', out]);
      expect(b.code).toBe(0);
      expect(readFileSync(out, 'utf8')).toContain('miner: "At the end of your turn, you receive 1 coin for each Mountains region."');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`rulebook text content/` checks every shipped pack', async () => {
    const a = await rulebook(['text', join(root, 'content')]);
    expect(a.code).toBe(0);
    expect(a.out).toContain(`checked ${findPacks(join(root, 'content')).length} packs: 0 errors, 0 warnings`);
  });

  it('the checker has no Node imports, so the playground’s worker can run it', () => {
    const dir = join(root, 'compiler/text');
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(/from ['"]node:|require\(/);
  });
});
