/**
 * Readings of the card text checker that the mechanical mutations found wanting (issue #15), each on
 * a shipped card whose rules or text is changed in memory the way a slip would change it: what a
 * choice offers (TX0108), what a count is per (TX0109), one number of the text for each number the rules give, a count a rule
 * sets, the floor under a price, ordinals, who a clause names and whose region (TX0106), and drafts
 * that read like printed cards. (That the shipped cards as they are raise nothing is
 * test/text.test.ts's.)
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { analyze } from '../compiler/index.ts';
import { checkPackTexts, draftTexts, prepareTexts, type TextFinding } from '../compiler/text/index.ts';

const content = join(import.meta.dirname, '..', 'content');

/** The findings on one card of a shipped pack after replacing `from` with `to` in one of its files. */
function findings(pack: string, path: string, card: string, from: string, to: string): TextFinding[] {
  const dir = join(content, pack);
  const files = readPackFolder(dir);
  const file = files.find((f) => f.path === path)!;
  expect(file.text).toContain(from);
  const changed = files.map((f) => (f === file ? { ...f, text: f.text.replace(from, to) } : f));
  const report = checkPackTexts(changed, { dependencies: dependenciesOf(dir, files) });
  return report.diagnostics.filter((d) => d.card === card && d.severity === 'error');
}

describe('readings the mutation benchmark asked for', () => {
  it('TX0108: a choice whose list no longer offers what the text names, at the word for choosing', () => {
    const found = findings('smallworld-wow', 'races/worgen.yaml', 'worgen', '[human, wolf] else [human]', '[wolf, wolf] else [human]');
    const en = found.find((f) => f.code === 'TX0108' && f.lang === 'en')!;
    expect(en.words).toBe('choose');
    expect(en.message).toContain('the en text offers a choice of');
    expect(en.file).toBe('races/worgen.yaml');
    expect(found.some((f) => f.code === 'TX0108' && f.lang === 'pl')).toBe(true);
    expect(found.some((f) => f.code === 'TX0108' && f.lang === 'de')).toBe(true);
  });

  it('TX0109: a text that drops what a count is per ("for each board"), or counts it per another kind, in the reader\'s words', () => {
    const path = 'powers/explorers.yaml';
    const dropped = findings('smallworld-wow', path, 'explorers', 'for each board on which the Explorers control', 'if the Explorers control');
    // It drops the boards' condition too ("on which … at least 1 region": the relation `any.activeRegions`).
    expect(dropped.map((f) => [f.lang, f.code]).sort()).toEqual([
      ['en', 'TX0109'],
      ['en', 'TX0202'],
    ]);
    const en = dropped.find((f) => f.code === 'TX0109')!;
    expect(en.message).toBe('the en text does not say what the count is per: the rules give it per board (`1`)');
    // The rules counting per region and the text per board: the finding is at the text's words.
    const other = findings('smallworld-wow', path, 'explorers', 'for b in game.boards {\n          if any(activeRegions(holder), it.board == b) {', 'for b in activeRegions(holder) {\n          if b.board == b.board {');
    expect(other.filter((f) => f.code === 'TX0109').map((f) => [f.lang, f.words]).sort()).toEqual([
      ['de', 'für jeden Spielplan'],
      ['en', 'for each board'],
      ['pl', 'za każdą planszę'],
    ]);
  });

  it('TX0202: a count of things with a related one that is so (`where any(neighbours(it), …)`) must say the relation, not only the related one\'s terms', () => {
    const path = 'powers/fishermen.yaml';
    const en = findings('smallworld-wow', path, 'fishermen', 'for each region controlled by the Fishermen that is adjacent to a Lake or Sea region', 'for each Lake or Sea region controlled by the Fishermen');
    expect(en.map((f) => [f.lang, f.code])).toEqual([['en', 'TX0202']]);
    expect(en[0].message).toBe('the rules say each `region` counted must be `neighbours` to one that is `sea` or `lake` (`count(activeRegions(holder) where any(neighbours(it), it.terrain == sea or it.terrain == lake))`), which the en text does not say');
    expect(en[0].canonical).toBe('a region adjacent to a Sea or Lake region');
    expect(en[0].hint).toBe('say it in the en text, e.g. “At the end of your turn, you receive 1 victory coin for each region adjacent to a Sea or Lake region.”');
    const pl = findings('smallworld-wow', path, 'fishermen', 'za każdy kontrolowany przez Rybaków region, który sąsiaduje z regionem Jezior albo Mórz', 'za każdy kontrolowany przez Rybaków region Jezior albo Mórz');
    expect(pl.map((f) => [f.lang, f.code])).toEqual([['pl', 'TX0202']]);
    const de = findings('smallworld-wow', path, 'fishermen', 'Region, die an eine See- oder Meeresregion angrenzt', 'See- oder Meeresregion');
    expect(de.map((f) => [f.lang, f.code])).toEqual([['de', 'TX0202']]);
    // Said with the words of another relation of the pack ("region next to", the Heart's), it is said.
    expect(findings('smallworld-wow', path, 'fishermen', 'for each region controlled by the Fishermen that is adjacent to', 'for each region next to a Lake or Sea region, as for each region controlled by the Fishermen that is adjacent to')).toEqual([]);
  });

  it('TX0202: an action that asks its region less than the game action it is offered with (`reachable.waived`) must say so', () => {
    const found = findings('smallworld-wow', 'markers.yaml', 'ashesOfAlar', 'conquer any region on any board, treating', 'conquer a region, treating');
    expect(found.map((f) => [f.lang, f.code])).toEqual([['en', 'TX0202']]);
    expect(found[0].message).toContain('the rules say effect `anywhere`');
    expect(found[0].hint).toBe('say it in the en text, e.g. “on any board”');
    // The same action asking `reachable(r)` again, as Frostmourne does, keeps the game's reach: the text need not say
    // it (and a text that says it anyway is not flagged: an effect's words only support, NOTES.md).
    const kept = findings('smallworld-wow', 'markers.yaml', 'ashesOfAlar', 'require canConquer(r)\n        require me.hand >= 1 else "you have no tokens left in hand"\n        let cost = max(fewestTokens(me.race), max(1, conquestCost(r) - travelCost(r)))', 'require canConquer(r)\n        require reachable(r)\n        require me.hand >= 1 else "you have no tokens left in hand"\n        let cost = max(fewestTokens(me.race), max(1, conquestCost(r) - travelCost(r)))');
    expect(kept.map((f) => f.code)).toEqual([]);
  });

  it('TX0202: the card put where its player chooses (`choose spot in … { spot.treasure = self }`) must be said; a conquest that moves it need not say so', () => {
    const found = findings('smallworld-wow', 'markers.yaml', 'heartOfAzeroth', 'At the end of your turn, place the Heart of Azeroth marker in 1 of the regions you control. Collect', 'At the end of your turn, collect');
    expect(found.map((f) => [f.lang, f.code])).toEqual([['en', 'TX0202']]);
    expect(found[0].message).toBe('the rules say effect `place` (`spot.treasure = self`), which the en text does not say');
    // The hint says it as a draft does, by the effect's template.
    expect(found[0].hint).toBe('say it in the en text, e.g. “place this marker in 1 of the regions you control”');
    // Frostmourne's `r.treasure = self` follows the action's conquest of `r`, no `choose`: its text says no "place".
    expect(findings('smallworld-wow', 'markers.yaml', 'frostmourne', 'Once per turn you may use Frostmourne to conquer', 'Once per turn you may use Frostmourne to conquer')).toEqual([]);
  });

  it('TX0202: a choice among things sharing a field with one of the rule (`regions where board == r.board`) must say where they are', () => {
    const found = findings('smallworld-wow', 'markers.yaml', 'wellOfEternity', 'a Lake or Sea region on the same board', 'a Lake or Sea region on any board');
    expect(found.map((f) => [f.lang, f.code])).toEqual([['en', 'TX0202']]);
    expect(found[0].message).toContain('each `region` the choice offers has the same `board`');
    expect(found[0].hint).toContain('move it to a Lake or Sea region on the same board (if there is none, draw another Legendary Place)');
  });

  it('TX0201: a relation turned round — "adjacent" where the rule a card changes applies to what is not adjacent (`not bordersRace(r, me)`)', () => {
    const found = findings('smallworld-wow', 'markers.yaml', 'meetingStone', 'when you conquer a non-adjacent starting region', 'when you conquer an adjacent starting region');
    expect(found.map((f) => [f.lang, f.code, f.words])).toEqual([['en', 'TX0201', 'adjacent']]);
    expect(found[0].message).toContain('the opposite of the rules: what the rules ask is not so (`not bordersRace`)');
    // Said the other way round, the same relation is no finding.
    expect(findings('smallworld-wow', 'markers.yaml', 'meetingStone', 'a non-adjacent starting region', 'a starting region not adjacent to your race')).toEqual([]);
  });

  it('TX0109: a relation said of what a count counts, when the rules count every such thing', () => {
    const found = findings('smallworld-wow', 'powers/herbalists.yaml', 'herbalists', 'for each Hills region the Herbalists control', 'for each Hills region adjacent to a region the Herbalists control');
    expect(found.map((f) => [f.lang, f.code, f.words])).toEqual([['en', 'TX0109', 'region adjacent to']]);
    expect(found[0].message).toContain('but the rules count it per region, with no such relation');
  });

  it('TX0202: a choice among things in a relation to your own (`where … bordersRace(it, holder)`) must say it; a draft says it in the effect', () => {
    const found = findings('smallworld-wow', 'races/goblins.yaml', 'goblins', 'in each adjacent region occupied by', 'in each region occupied by');
    expect(found.map((f) => [f.lang, f.code])).toEqual([['en', 'TX0202']]);
    expect(found[0].message).toContain('each `region` the choice offers must be `bordersRace` to yours');
    expect(found[0].hint).toContain('you may plant 1 Bomb face down in each adjacent region occupied by an opponent');
  });

  it('TX0106: the card put among the things of its own player (`choose spot in activeRegions(holder) …`) must say they are yours', () => {
    const found = findings('smallworld-wow', 'markers.yaml', 'heartOfAzeroth', 'marker in 1 of the regions you control', 'marker in a region');
    expect(found.map((f) => [f.lang, f.code])).toEqual([['en', 'TX0106']]);
    expect(found[0].message).toContain("the rules offer only the card's own player's");
    expect(found[0].hint).toContain('place this marker in 1 of the regions you control');
    expect(findings('smallworld-wow', 'markers.yaml', 'heartOfAzeroth', 'marker in 1 of the regions you control', 'marker in one of your regions')).toEqual([]);
  });

  it('TX0103: a moment of your turn (`on turnScored(p) when p == holder`) said of every turn, an opponent\'s, or the reverse', () => {
    for (const [from, to] of [
      ['control at the end of your turn', 'control at the end of each turn'],
      ['control at the end of your turn', "control at the end of an opponent's turn"],
      ['na koniec swojej tury', 'na koniec każdej tury'],
      ['Am Ende deines Zuges', 'Am Ende jedes Zuges'],
    ]) {
      const found = findings('smallworld-wow', 'powers/farmers.yaml', 'farmers', from, to);
      const timing = found.filter((f) => f.code === 'TX0103');
      expect(timing.length, to).toBe(1);
      expect(timing[0].message).toContain('but the rules say timing `endOfTurn` of your turn');
    }
    expect(findings('smallworld-wow', 'powers/farmers.yaml', 'farmers', 'control at the end of your turn', 'control at the end of each of your turns')).toEqual([]);
    const every = findings('smallworld-wow', 'powers/farmers.yaml', 'farmers', 'on turnScored(p) when p == holder {', 'on turnScored(p) {');
    expect(every.filter((f) => f.code === 'TX0103').map((f) => f.lang).sort()).toEqual(['de', 'en', 'pl']);
  });

  it('TX0201: a count\'s relation turned round ("nie sąsiaduje") is named as the opposite of the relation, not as a count of zero', () => {
    const found = findings('smallworld-wow', 'powers/fishermen.yaml', 'fishermen', 'który sąsiaduje z regionem', 'który nie sąsiaduje z regionem');
    const first = found.find((f) => f.lang === 'pl')!;
    expect(first.code).toBe('TX0201');
    expect(first.words).toBe('nie sąsiaduje');
    expect(first.message).toContain('the opposite of the rules: the rules ask it to be so (`neighbours`)');
    expect(found.some((f) => f.message.includes('(0 region)'))).toBe(false);
  });

  it('two numbers of the rules need two numbers of the text: "counts as 1 race token" does not also say a conquest costs 1', () => {
    const found = findings('smallworld-wow', 'powers/champions.yaml', 'champions', 'conquerWith(me, r, 0)', 'conquerWith(me, r, 1)');
    expect(found.filter((f) => f.code === 'TX0202').map((f) => f.lang).sort()).toEqual(['de', 'en', 'pl']);
  });

  it('"you do not discard any race token" does not say that an effect costs nothing', () => {
    const found = findings('smallworld-wow', 'powers/champions.yaml', 'champions', 'conquer any adjacent region for free by', 'conquer any adjacent region by');
    expect(found.filter((f) => f.lang === 'en').map((f) => f.code)).toEqual(['TX0202']);
  });

  it('a count a rule sets (`r.beasts = 1`) is not said by "discard 1 Beast token" nor by "as many … as"', () => {
    const found = findings('smallworld-wow', 'powers/beastMasters.yaml', 'beastMasters', 'r.beasts = 0', 'r.beasts = 1');
    expect(found.filter((f) => f.code === 'TX0202').length).toBeGreaterThan(0);
  });

  it('"(you must pay at least 1 token)" is read against the floor under the price, not a condition on the hand', () => {
    const found = findings('smallworld-wow', 'markers.yaml', 'frostmourne', 'max(1, conquestCost(r) - 2))\n        require', 'max(2, conquestCost(r) - 2))\n        require');
    const en = found.find((f) => f.lang === 'en')!;
    // The floor is part of the price a text must say, so the text's 1 is the rules' 2 said wrong.
    expect(en.code).toBe('TX0101');
    expect(en.words).toBe('1 token');
    // The "must" of the floor is no TX0105, but a "must" of the action's own part is.
    const must = findings('smallworld-wow', 'markers.yaml', 'frostmourne', 'Once per turn you may use Frostmourne', 'Once per turn you must use Frostmourne');
    expect(must.map((f) => f.code)).toEqual(['TX0105']);
  });

  it('an ordinal of the language file is a number: "then a second card" against `repeat min(2, …)`', () => {
    const found = findings('wotlk', 'rewards/rewards.yaml', 'newAllies', 'repeat min(2, count(game.heroDiscard))', 'repeat min(3, count(game.heroDiscard))');
    // The repeat's count is what the card takes, up to 2: a text saying 2 of a rule giving 3 has a number that differs.
    expect(found.map((f) => `${f.code} ${f.lang} ${f.words}`).sort()).toEqual(['TX0101 en a second card', 'TX0101 pl drugą kartę']);
  });

  it('a draft says an action’s limit once when its frame already says it (Wroth’s feats)', () => {
    const dir = join(content, 'wroth');
    const files = readPackFolder(dir);
    const ctx = prepareTexts(analyze(files, { dependencies: dependenciesOf(dir, files), lower: false }), { dependencies: dependenciesOf(dir, files) })!;
    for (const [lang, once] of [['en', 'Once per game'], ['pl', 'Raz na grę']]) {
      const { yaml } = draftTexts(ctx, lang);
      const lines = yaml.split('\n').filter((l) => !l.trimStart().startsWith('#'));
      expect(lines).toContain(lines.find((l) => l.includes('riteOfTradition'))!);
      expect(lines.find((l) => l.includes('riteOfTradition:'))).toContain(`"${once},`);
      expect(lines.filter((l) => l.split(once).length > 2), lang).toEqual([]);
    }
  });
  /** Each card's line of a shipped pack's draft in one language, by card id. */
  function draftLines(pack: string, lang: string): Map<string, string> {
    const dir = join(content, pack);
    const files = readPackFolder(dir);
    const ctx = prepareTexts(analyze(files, { dependencies: dependenciesOf(dir, files), lower: false }), { dependencies: dependenciesOf(dir, files) })!;
    const lines = new Map<string, string>();
    for (const m of draftTexts(ctx, lang).yaml.matchAll(/^ {2}(\w+): "(.*)"$/gm)) lines.set(m[1], m[2]);
    return lines;
  }

  it('a draft says what a procedure’s amount does with the verb the language file gives it (“gain 3 Korra”)', () => {
    expect(draftLines('wroth', 'en').get('riteOfTradition')).toBe('Once per game, in your turn: gain 3 Korra.');
    expect(draftLines('wroth', 'pl').get('riteOfTradition')).toBe('Raz na grę, w swojej Turze: zyskaj 3 Korry.');
    expect(draftLines('wroth', 'pl').get('kinship')).toBe('Podczas Przydziału zyskaj 1 Korrę.');
    // Two amounts of one action are two clauses, joined as a list's last two.
    expect(draftLines('wroth', 'en').get('standFirm')).toBe('Once per game, in your turn: deploy 2 basic troops and gain 2 Korra.');
  });

  it('a draft reads like a printed card: a number said once, what your own faction loses paid, all but one', () => {
    const wroth = { en: draftLines('wroth', 'en'), pl: draftLines('wroth', 'pl') };
    // The two branches of one `if` (the AI's strike, the player's damage) give the same 1 damage: said once, with its verb.
    expect(wroth.en.get('crysen')).toBe('When you deploy it, deal 1 damage.');
    expect(wroth.pl.get('crysen')).toBe('Gdy go rozmieszczasz, zadaj 1 punkt Obrażeń.');
    // `mine().korra -= 3`: the card's own faction pays, in the order the rules do it, and what it pays first buys the rest
    // where the language has `cost` ("pay 3 Korra to deal 1 damage"); the AI's trigger that only repeats it is not said.
    expect(wroth.en.get('paidContract')).toBe('Faction ability, in your turn: pay 3 Korra to deal 1 damage.');
    // Polish says what the payment buys in the verbs' `purpose` form, after its `payment` template's "aby", as printed.
    expect(wroth.pl.get('paidContract')).toBe('Zdolność Frakcji, w swojej Turze: zapłać 3 Korry, aby zadać 1 punkt Obrażeń.');
    expect(wroth.pl.get('outOfTheSilence')).toBe('Zdolność Frakcji, w swojej Turze: zapłać 2 Korry, aby poruszyć 1 Oddział Podstawowy.');
    expect(wroth.en.get('callOfKodaKonn')).toBe('Faction ability, in your turn: pay 2 Korra to deploy 1 basic troop.');
    // `holder.hand += r.beasts - 1`: all the beasts but one.
    const last: Record<string, string> = {
      en: 'Each time race tokens are lost, you receive all but 1 Beast token.',
      pl: 'Za każdym razem, gdy przepadają żetony Rasy, otrzymujesz wszystkie oprócz 1 żetonu Bestii.',
      de: 'Jedes Mal, wenn Volksmarker verloren gehen, erhältst du alle bis auf 1 Bestienmarker.',
    };
    for (const [lang, sentence] of Object.entries(last)) expect(draftLines('smallworld-wow', lang).get('beastMasters')!.endsWith(sentence), lang).toBe(true);
    // Another player the rules name (`attacker`, the event's parameter) by the language file's `players` word.
    const humans: Record<string, string> = {
      en: 'Each time a region is conquered, the attacker receives 2 victory coins and you receive 2 victory coins',
      pl: 'Za każdym razem, gdy region zostanie podbity, atakujący otrzymuje 2 monety zwycięstwa i otrzymujesz 2 monety zwycięstwa',
      de: 'Jedes Mal, wenn eine Region erobert wird, erhält der Angreifer 2 Siegmünzen und du erhältst 2 Siegmünzen',
    };
    for (const [lang, sentence] of Object.entries(humans)) expect(draftLines('smallworld-wow', lang).get('humans'), lang).toContain(sentence);
  });

  it('a draft says a count bounded by what the card keeps (`min(self.pieces, count(…))`) as one per element, once', () => {
    const said: Record<string, string> = {
      en: 'At the start of your turn, you receive 1 race token for each Hills region.',
      pl: 'Na początku swojej tury otrzymujesz 1 żeton Rasy za każdy region Wzgórz.',
      de: 'Zu Beginn deines Zuges erhältst du 1 Volksmarker für jede Hügelregion.',
    };
    for (const [lang, first] of Object.entries(said)) expect(draftLines('smallworld-wow', lang).get('beastMasters')!.startsWith(first), lang).toBe(true);
  });
  it('TX0106: a gain the rules give the card’s own player, said of an opponent', () => {
    const slips: Array<[string, string, string]> = [
      ['en', 'You receive 1 extra victory coin', 'An opponent receives 1 extra victory coin'],
      ['pl', 'Otrzymujesz 1 dodatkową monetę', 'Przeciwnik otrzymuje 1 dodatkową monetę'],
      ['de', 'erhältst du 1 zusätzliche Siegmünze', 'erhält ein Gegner 1 zusätzliche Siegmünze'],
    ];
    for (const [lang, from, to] of slips) {
      const found = findings('smallworld-wow', 'powers/battleMasters.yaml', 'battleMasters', from, to).filter((f) => f.lang === lang);
      expect(found.map((f) => f.code), lang).toEqual(['TX0106']);
      expect(found[0].message, lang).toContain('of what the rules give the card\'s own player');
    }
  });

  it('TX0106: "you" of what the rules give another player, and "the attacker" of what they give you', () => {
    const reverse: Array<[string, string, string]> = [
      ['en', 'The race that, at the end of the turn, occupies more regions adjacent to the Well of Eternity than any other race receives', 'If at the end of the turn you occupy more regions adjacent to the Well of Eternity than any other race, you receive'],
      ['pl', 'Rasa, która na koniec tury zajmuje więcej regionów sąsiadujących ze Studnią Wieczności niż jakakolwiek inna, otrzymuje', 'Jeśli na koniec tury zajmujesz więcej regionów sąsiadujących ze Studnią Wieczności niż jakakolwiek inna Rasa, otrzymujesz'],
      ['de', 'Das Volk, das am Ende des Zuges mehr an den Brunnen der Ewigkeit angrenzende Regionen besetzt als jedes andere Volk, erhält', 'Besetzt du am Ende des Zuges mehr an den Brunnen der Ewigkeit angrenzende Regionen als jedes andere Volk, erhältst du'],
    ];
    for (const [lang, from, to] of reverse) {
      const found = findings('smallworld-wow', 'markers.yaml', 'wellOfEternity', from, to).filter((f) => f.lang === lang);
      expect(found.map((f) => f.code), lang).toEqual(['TX0106']);
      expect(found[0].message, lang).toContain('of what the rules give another player');
    }
    // The rules give the coin to the card's own player, who attacks: "the attacker" would give it to anyone who does.
    const attacker = findings('smallworld-wow', 'powers/battleMasters.yaml', 'battleMasters', 'Jedes Mal, wenn du eine besetzte Region eroberst, erhältst du', 'Jedes Mal, wenn eine besetzte Region erobert wird, erhält der Angreifer');
    expect(attacker.map((f) => `${f.code} ${f.lang} ${f.words}`)).toEqual(['TX0106 de der Angreifer']);
    expect(attacker[0].message).toContain("the card's own player");
    // The Humans' rule gives the conquering player 2 coins: "the attacker" names them, in every language.
    for (const [lang, from, to] of [
      ['en', 'they receive 2 extra victory coins', 'the attacker receives 2 extra victory coins'],
      ['pl', 'otrzyma 2 dodatkowe monety zwycięstwa', 'atakujący otrzyma 2 dodatkowe monety zwycięstwa'],
      ['de', 'erhält er 2 zusätzliche Siegmünzen', 'erhält der Angreifer 2 zusätzliche Siegmünzen'],
    ]) {
      expect(findings('smallworld-wow', 'races/humans.yaml', 'humans', from, to).filter((f) => f.lang === lang), lang).toEqual([]);
    }
  });

  it('TX0106: whose region a text names against the owner the rules\' conditions test', () => {
    const found = findings('smallworld-wow', 'powers/marshfolk.yaml', 'marshfolk', 'when conquering a Swamp region you occupy', "when conquering an opponent's Swamp region");
    expect(found.map((f) => `${f.code} ${f.lang} ${f.words}`)).toEqual(["TX0106 en opponent's"]);
    expect(found[0].message).toContain("the rules ask for the card's own player's");
    const goblins = findings('smallworld-wow', 'races/goblins.yaml', 'goblins', 'przez Aktywną Rasę przeciwnika', 'przez Twoją Aktywną Rasę');
    expect(goblins.map((f) => `${f.code} ${f.lang}`)).toEqual(['TX0106 pl']);
    expect(goblins[0].message).toContain("another player's");
    // Said another way, the same owner passes.
    expect(findings('smallworld-wow', 'powers/marshfolk.yaml', 'marshfolk', 'wenn er eine Sumpfregion erobert, die du besetzt', 'wenn er deine Sumpfregion erobert')).toEqual([]);
  });

  it('TX0502: a language file’s word for a player the rules do not name (a misspelt `players` key) is named, with the closest name', () => {
    const dir = join(content, 'smallworld-wow');
    const files = readPackFolder(dir);
    const changed = files.map((f) => (f.path === 'language/de.yaml' ? { ...f, text: f.text.replace('    attacker: ["der Angreifer"', '    attackr: ["der Angreifer"') } : f));
    expect(changed).not.toEqual(files);
    const report = checkPackTexts(changed, { dependencies: dependenciesOf(dir, files) });
    const found = report.diagnostics.filter((d) => d.code === 'TX0502');
    const line = files.find((f) => f.path === 'language/de.yaml')!.text.split('\n').findIndex((l) => l.startsWith('    attacker: ["der Angreifer"')) + 1;
    expect(found.map((f) => `${f.file}:${f.line}:${f.column} ${f.message}`)).toEqual([`language/de.yaml:${line}:5 \`attackr\` is not a player the rules name: an event's parameter or a field`]);
    expect(found[0].hint).toBe('did you mean `attacker`?');
  });
});
