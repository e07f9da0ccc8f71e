/**
 * What a player acts on, read from a card's text and its rules (issue #15): whether they choose
 * (may / must / cannot, TX0105), whether it is theirs or every player's (TX0106), how long what the
 * card keeps lasts (TX0107), and a count a card keeps in a field of its own, paid out later, which
 * must read as what it means ("1 coin for each Mountains region conquered this turn") instead of
 * blocking its text (it was TX0201, with a garbled rendering).
 */
import { describe, expect, it } from 'vitest';
import type { SourceFile } from '../compiler/index.ts';
import { checkPackTexts, type TextFinding } from '../compiler/text/index.ts';

const manifest = `id: aspects
version: 0.1.0
name: { en: Aspects, pl: Aspekty }
languages: [en, pl]
players: { min: 2, max: 2 }
`;

const game = `enums:
  terrain: [hills, mountains]
kinds:
  region:
    props:
      terrain: terrain
    state:
      owner: player?
  card:
    state:
      tally: number
      used: bool
      braced: bool
  player:
    state:
      coins: number
      hand: number
entities:
  - region: r1
    terrain: hills
  - region: r2
    terrain: mountains
rules: |
  event turnStarted(p: player)
  event turnEnded(p: player)
  event conquered(r: region, conqueror: player)
  pipeline cost(r: region): number min 1 = 2
  pipeline bounty(p: player): number = 0

  action claim(r: region) "Claim {r}" {
    require r.owner == none else "{r} is taken"
    require me.hand >= cost(r) else "{r} costs more tokens than you hold"
    r.owner = me
    me.hand -= cost(r)
    me.coins += bounty(me)
    emit conquered(r, me)
  }
  action pass "Pass" { }

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
    bounty: coin
    region: region
  terms:
    enums: [terrain]
  timing:
    endOfTurn: [turnEnded]
    startOfTurn: [turnStarted]
    conquest: [conquered]
`;

const en = `language:
  lang: en
  numbers: { one: 1, two: 2, three: 3 }
  if: [if, when]
  joins: [and, or]
  one: [a, an]
  times: { once: 1 }
  per: { turn: ["per turn"] }
  units:
    coin: { read: ["coin*"], say: { one: coin, other: coins } }
    token: { read: ["token*"], say: { one: token, other: tokens } }
    region: { read: ["region*"], say: { one: region, other: regions } }
  terms:
    hills: { read: [Hills], say: { nom: a Hills region, bare: Hills region } }
    mountains: { read: [Mountains], say: { nom: a Mountains region, bare: Mountains region } }
  timing:
    endOfTurn: { read: ["at the end of … turn"], say: "At the end of your turn," }
    startOfTurn: { read: ["at the start of … turn"], say: "At the start of your turn," }
    conquest: { say: "Each time a region is conquered,", counted: conquered }
  modes: { may: [may, can], must: [must], cannot: [cannot, "may not"] }
  durations:
    endOfTurn: { read: ["this turn"], say: "this turn" }
    startOfTurn: { read: ["until … next turn"], say: "until your next turn" }
  everyone: ["each player", "every player"]
  whose: { you: ["region* you occupy"], opponent: ["region* of an opponent"] }
  directions:
    gain: { before: [receive, take] }
    lose: { before: [pay] }
    fewer: { after: [fewer] }
    more: { after: [more] }
  words: [You, Brace]
  templates:
    sentence: { timed: "{timing} {clauses}.", plain: "{clauses}." }
    and: ", and "
    gain: "you receive {amount}"
    gainPer: "you receive {amount} for each {per:bare}"
    fewer: "for {amount} fewer"
    times: { 1: once, other: "{n} times" }
    limit: { turn: "{times} per turn" }
    action: { brace: "you may brace", bless: "you may take a blessing" }
    modify:
      cost:
        fewer: "you claim {where} for {amount} fewer"
      bounty:
        more: "when you claim a region, you receive {amount} more"
`;

const pl = `language:
  lang: pl
  numbers: { jeden: 1, dwa: 2, trzy: 3 }
  if: [jeśli, gdy]
  joins: [i, albo]
  times: { raz: 1 }
  per: { turn: ["na turę"] }
  units:
    coin:
      read: ["monet*"]
      say:
        nom: { one: moneta, few: monety, many: monet, other: monety }
        acc: { one: monetę, few: monety, many: monet, other: monety }
    token: { read: ["żeton*"], say: { nom: { one: żeton, few: żetony, many: żetonów, other: żetonu } } }
    region: { read: ["region*"], say: { nom: { one: region, few: regiony, many: regionów, other: regionu } } }
  terms:
    hills: { read: [Wzgórz], say: { nom: region Wzgórz, acc: region Wzgórz } }
    mountains: { read: [Gór], say: { nom: region Gór, acc: region Gór } }
  timing:
    endOfTurn: { read: ["na koniec … tury"], say: "Na koniec swojej tury" }
    startOfTurn: { read: ["na początku … tury"], say: "Na początku swojej tury" }
    conquest: { say: "Za każdym razem, gdy region zostanie podbity,", counted: podbity }
  modes: { may: [możesz, może], must: [musisz, musi], cannot: ["nie możesz", "nie może"] }
  durations:
    endOfTurn: { read: ["w tej turze"], say: "w tej turze" }
    startOfTurn: { read: ["do … następnej tury"], say: "do Twojej następnej tury" }
  everyone: ["każdy gracz"]
  whose: { you: ["który zajmujesz"], opponent: ["region* przeciwnika"] }
  directions:
    gain: { before: ["otrzym*", "weź"] }
    lose: { before: ["zapłać"] }
    fewer: { after: [mniej] }
    more: { after: [więcej] }
  words: [Ty]
  templates:
    sentence: { timed: "{timing} {clauses}.", plain: "{clauses}." }
    and: " i "
    gain: "otrzymujesz {amount:acc}"
    gainPer: "otrzymujesz {amount:acc} za każdy {per:acc}"
    fewer: "płacąc {amount:acc} mniej"
    times: { 1: raz, other: "{n} razy" }
    limit: { turn: "{times} na turę" }
    action: { brace: "możesz się przygotować", bless: "możesz przyjąć błogosławieństwo" }
    modify:
      cost:
        fewer: "zajmujesz {where:acc}, płacąc {amount:acc} mniej"
      bounty:
        more: "gdy zajmujesz region, otrzymujesz {amount:acc} więcej"
`;

const RULES = {
  // A count kept in a field of the card and paid out at the end of the turn.
  stonecutters: `on conquered(r, conqueror) when conqueror == holder and r.terrain == mountains {
  self.tally += 1
}
on turnEnded(p) when p == holder {
  holder.coins += self.tally
  self.tally = 0
}`,
  // An action: the player may take it, once per turn.
  blessing: `action bless "Take a blessing" anytime {
  require not self.used else "already blessed this turn"
  self.used = true
  me.coins += 1
}
on turnEnded(p) {
  self.used = false
}`,
  // A trigger that gives without asking.
  tithe: `on turnEnded(p) when p == holder {
  holder.coins += 2
}`,
  // A flag set by an action, read by a modifier, cleared at the end of the turn: "this turn".
  brace: `action brace "Brace" anytime {
  require not self.braced else "already braced"
  self.braced = true
}
modify cost(r) when self.braced = value - 1
on turnEnded(p) when p == holder {
  self.braced = false
}`,
  // An action the player may take, and a bonus the rules add to every claim without asking.
  banner: `action rally "Rally" anytime {
  require not self.used else "already rallied this turn"
  self.used = true
  me.coins += 1
}
on turnEnded(p) {
  self.used = false
}
modify bounty(p) when p == holder = value + 1`,
  // Two rules, one paying for the card's own player's regions, the other for an opponent's.
  surveyors: `on turnEnded(p) when p == holder {
  holder.coins += count(regions where owner == holder)
}
on turnStarted(p) when p == holder {
  holder.coins += 2 * count(regions where owner != holder and owner != none)
}`,
} as const;

type Id = keyof typeof RULES;

const TEXTS: Record<Id, { en: string; pl: string }> = {
  stonecutters: {
    en: 'At the end of your turn, you receive 1 coin for each Mountains region conquered this turn.',
    pl: 'Na koniec swojej tury otrzymujesz 1 monetę za każdy region Gór podbity w tej turze.',
  },
  blessing: { en: 'Once per turn you may take 1 coin.', pl: 'Raz na turę możesz wziąć 1 monetę.' },
  tithe: { en: 'At the end of your turn, you receive 2 coins.', pl: 'Na koniec swojej tury otrzymujesz 2 monety.' },
  brace: { en: 'Once per turn you may brace: this turn you claim regions for 1 token fewer.', pl: 'Raz na turę możesz się przygotować: w tej turze zajmujesz regiony, płacąc 1 żeton mniej.' },
  surveyors: {
    en: 'At the end of your turn, you receive 1 coin for each region you occupy. At the start of your turn, you receive 2 coins for each region of an opponent.',
    pl: 'Na koniec swojej tury otrzymujesz 1 monetę za każdy region, który zajmujesz. Na początku swojej tury otrzymujesz 2 monety za każdy region przeciwnika.',
  },
  banner: {
    en: 'Once per turn you may take 1 coin. When you claim a region, you receive 1 more coin.',
    pl: 'Raz na turę możesz wziąć 1 monetę. Gdy zajmujesz region, otrzymujesz 1 monetę więcej.',
  },
};

function files(id: Id, texts: { en: string; pl: string } = TEXTS[id]): SourceFile[] {
  const rules = RULES[id]
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
  const cards = `entities:\n  - card: ${id}\n    name: { en: ${id}, pl: ${id} }\n    text:\n      en: ${JSON.stringify(texts.en)}\n      pl: ${JSON.stringify(texts.pl)}\n    rules: |\n${rules}\n`;
  return [
    { path: 'pack.yaml', text: manifest },
    { path: 'game.yaml', text: game },
    { path: 'language/glossary.yaml', text: glossary },
    { path: 'language/en.yaml', text: en },
    { path: 'language/pl.yaml', text: pl },
    { path: 'cards.yaml', text: cards },
  ];
}

function findings(id: Id, texts?: { en: string; pl: string }): TextFinding[] {
  return checkPackTexts(files(id, texts)).diagnostics.filter((d) => d.severity === 'error');
}

describe('what a player acts on', () => {
  it('the shipped wording of every test card passes in both languages', () => {
    for (const id of Object.keys(RULES) as Id[]) expect(findings(id), id).toEqual([]);
  });

  it('TX0105: "must" of an action the player may take, in the reader’s words, at the word', () => {
    const [f, ...rest] = findings('blessing', { en: 'Once per turn you must take 1 coin.', pl: TEXTS.blessing.pl });
    expect(rest).toEqual([]);
    expect(f.code).toBe('TX0105');
    expect(f.message).toContain('the en text says “must”, but the rules leave it to the player');
    expect(f.words).toBe('must');
    expect(f.file).toBe('cards.yaml');
    expect(f.line).toBe(5);
  });

  it('TX0105: "may" of what happens without a choice, in Polish too', () => {
    const found = findings('tithe', { en: 'At the end of your turn, you may receive 2 coins.', pl: 'Na koniec swojej tury możesz otrzymać 2 monety.' });
    expect(found.map((f) => [f.code, f.lang])).toEqual([
      ['TX0105', 'en'],
      ['TX0105', 'pl'],
    ]);
    expect(found[0].message).toContain('the rules make it mandatory');
  });

  it('TX0105: "may" in the clause of a bonus the rules always add, though the card has an action the player may take', () => {
    const en = 'Once per turn you may take 1 coin. When you claim a region, you may receive 1 more coin.';
    const found = findings('banner', { en, pl: 'Raz na turę możesz wziąć 1 monetę. Gdy zajmujesz region, możesz otrzymać 1 monetę więcej.' });
    expect(found.map((f) => [f.code, f.lang, f.words])).toEqual([
      ['TX0105', 'en', 'may'],
      ['TX0105', 'pl', 'możesz'],
    ]);
    expect(found[0].message).toContain('the rules make it mandatory');
    // The "may" of the bonus's clause, not the action's.
    expect(found[0].column).toBe('      en: "'.length + en.indexOf('may receive') + 1);
  });

  it('"may" of a number that decides what the player may do (a cost a `require` reads) is no finding', () => {
    expect(findings('brace', { en: 'Once per turn you may brace: this turn you may claim regions for 1 token fewer.', pl: 'Raz na turę możesz się przygotować: w tej turze możesz zajmować regiony, płacąc 1 żeton mniej.' })).toEqual([]);
  });

  it('TX0106: whose region is read in the clause of the number it qualifies, not across the card', () => {
    const found = findings('surveyors', {
      en: 'At the end of your turn, you receive 1 coin for each region of an opponent. At the start of your turn, you receive 2 coins for each region you occupy.',
      pl: 'Na koniec swojej tury otrzymujesz 1 monetę za każdy region przeciwnika. Na początku swojej tury otrzymujesz 2 monety za każdy region, który zajmujesz.',
    });
    expect(found.map((f) => [f.code, f.lang, f.words])).toEqual([
      ['TX0106', 'en', 'region of an opponent'],
      ['TX0106', 'en', 'region you occupy'],
      ['TX0106', 'pl', 'region przeciwnika'],
      ['TX0106', 'pl', 'który zajmujesz'],
    ]);
  });

  it('TX0106: "each player" where the rules give it to the card’s player', () => {
    const [f] = findings('tithe', { en: 'At the end of your turn, each player receives 2 coins.', pl: TEXTS.tithe.pl });
    expect(f.code).toBe('TX0106');
    expect(f.words).toBe('each player');
  });

  it('TX0107: a dropped "this turn" is reported at the rule; a wrong duration at the text’s words', () => {
    const dropped = findings('brace', { en: 'Once per turn you may brace: you claim regions for 1 token fewer.', pl: TEXTS.brace.pl });
    expect(dropped.map((f) => f.code)).toEqual(['TX0107']);
    expect(dropped[0].message).toBe('the en text does not say how long it lasts: the rules keep `self.braced = true` “this turn”');
    expect(dropped[0].line).toBe(10);
    const wrong = findings('brace', { en: TEXTS.brace.en, pl: 'Raz na turę możesz się przygotować: do Twojej następnej tury zajmujesz regiony, płacąc 1 żeton mniej.' });
    expect(wrong.map((f) => [f.code, f.words])).toEqual([['TX0107', 'do Twojej następnej tury']]);
  });

  it('renders what the card keeps with how long it lasts', () => {
    const r = checkPackTexts(files('brace'));
    expect(r.cards[0].langs.en.canonical).toContain('for 1 token fewer this turn');
  });
});

describe('a count a card keeps in a field of its own', () => {
  it('passes when the text says what it means, and renders as one sentence', () => {
    const r = checkPackTexts(files('stonecutters'));
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.cards[0].langs.en.canonical).toBe('At the end of your turn, you receive 1 coin for each Mountains region conquered this turn.');
    expect(r.cards[0].langs.pl.canonical).toBe('Na koniec swojej tury otrzymujesz 1 monetę za każdy region Gór podbity w tej turze.');
  });

  it('is still read: another number, another terrain or another unit is a finding', () => {
    const two = findings('stonecutters', { en: TEXTS.stonecutters.en.replace('1 coin', '2 coins'), pl: TEXTS.stonecutters.pl });
    expect(two.map((f) => f.code)).toContain('TX0101');
    const hills = findings('stonecutters', { en: TEXTS.stonecutters.en.replace('Mountains', 'Hills'), pl: TEXTS.stonecutters.pl });
    expect(hills.map((f) => f.code)).toContain('TX0102');
    const tokens = findings('stonecutters', { en: TEXTS.stonecutters.en, pl: TEXTS.stonecutters.pl.replace('1 monetę', '1 żeton') });
    expect(tokens.length).toBeGreaterThan(0);
  });
});
