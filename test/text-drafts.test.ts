/**
 * `rulebook text --draft`: every shipped pack's draft, in every language it declares, is made of
 * sentence parts a designer could print: each construct of the rules has its template in the pack's
 * language file (no TX0401), and nothing of the plain rendering a missing template falls back to
 * (a term list in parentheses, `+1 … (pipeline)`, `≤ 4`, `[timing]`) is left. A few drafts are shown
 * in full, in each language, as what the language files make of a card.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { analyze, type SourceFile } from '../compiler/index.ts';
import { draftTexts, languageOf, prepareTexts, type TextContext } from '../compiler/text/index.ts';

const content = join(import.meta.dirname, '..', 'content');
const PACKS = ['smallworld-wow', 'smallworld-wow-teams', 'wotlk', 'wroth'];

function contextOf(pack: string, edit?: (f: SourceFile) => SourceFile): TextContext {
  const dir = join(content, pack);
  const files = readPackFolder(dir);
  const dependencies = dependenciesOf(dir, files);
  const ctx = prepareTexts(analyze(edit ? files.map(edit) : files, { dependencies, lower: false }), { dependencies });
  if (!ctx) throw new Error(`${pack} does not compile`);
  return ctx;
}

/** Each card's line of a draft, by card id. */
function lines(yaml: string): Map<string, string> {
  return new Map([...yaml.matchAll(/^ {2}(\w+): "(.*)"$/gm)].map((m) => [m[1], JSON.parse(`"${m[2]}"`) as string]));
}

/** Every string under a language file's `templates` and `conditions`: the parentheses they open are the language's own. */
function ownParentheses(ctx: TextContext, lang: string): string[] {
  const l = languageOf(ctx, lang);
  const strings = (x: unknown): string[] => (typeof x === 'string' ? [x] : x && typeof x === 'object' ? Object.values(x).flatMap(strings) : []);
  const all = [...strings(l.templates), ...[...l.conditions.values()].map((c) => c.text ?? '')];
  return all.flatMap((t) => [...t.matchAll(/\(([^{)]*)/g)].map((m) => m[1])).filter(Boolean);
}

/** What in a drafted card is not a sentence part. */
function fragments(text: string, own: string[]): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\(([^)]*)\)/g)) if (!own.some((o) => m[1].startsWith(o))) out.push(`parenthesised “${m[0]}”`);
  for (const m of text.matchAll(/[[\]×=−≥≤]| \/ /g)) out.push(`symbol “${m[0]}”`);
  for (const s of text.split(/(?<=[.!?])\s+/).filter(Boolean)) {
    if (/^[\d\s.]+$/.test(s)) out.push(`a bare number “${s}”`);
    const w = s.split(' ').map((x) => x.replace(/[.,:;]$/, ''));
    for (let n = 1; n <= 4; n++) for (let i = 0; i + 2 * n <= w.length; i++) if (w.slice(i, i + n).join(' ') === w.slice(i + n, i + 2 * n).join(' ')) out.push(`“${w.slice(i, i + n).join(' ')}” twice`);
  }
  return out;
}

describe('drafts a designer would print', () => {
  for (const pack of PACKS) {
    it(`${pack}: every card in every language has a template for each construct and no fragment`, () => {
      const ctx = contextOf(pack);
      const langs = ctx.analysis.declared!.manifest.languages;
      expect(langs.length).toBeGreaterThan(1);
      for (const lang of langs) {
        const { yaml, warnings } = draftTexts(ctx, lang);
        expect(warnings.map((w) => `${w.card}: ${w.message}`), `${pack} ${lang}`).toEqual([]);
        const own = ownParentheses(ctx, lang);
        const drafted = lines(yaml);
        expect(drafted.size).toBe(ctx.cards.length);
        for (const [card, text] of drafted) {
          expect(fragments(text, own), `${pack} ${lang} ${card}: ${text}`).toEqual([]);
          expect(text, `${pack} ${lang} ${card} drafts empty`).not.toBe('');
        }
      }
    });
  }

  it('the fragment check sees what the plain rendering leaves (a term list, a sign, a repeat)', () => {
    expect(fragments('At the end of your turn, (a Fields region).', [])).toEqual(['parenthesised “(a Fields region)”']);
    expect(fragments('You must pay (you must pay at least 1 token).', ['you must pay at least '])).toEqual([]);
    expect(fragments('Action: ≤ 4. +1 card (cardsToLay).', [])).toEqual(['parenthesised “(cardsToLay)”', 'symbol “≤”']);
    expect(fragments('2. You may conquer a region 1 race token 1 race token.', [])).toEqual(['a bare number “2.”', '“1 race token” twice']);
  });

  const sw = { en: lines(draftTexts(contextOf('smallworld-wow'), 'en').yaml), pl: lines(draftTexts(contextOf('smallworld-wow'), 'pl').yaml), de: lines(draftTexts(contextOf('smallworld-wow'), 'de').yaml) };

  it('terms no clause says are said by their class’s template: as the clause, or qualifying one', () => {
    // A rule that sets a field the glossary makes a term, about a terrain: `about.terrain.put`.
    expect(sw.en.get('defenders')).toBe('At the end of your turn, place a Watchtower in a Fields region.');
    expect(sw.pl.get('defenders')).toBe('Na koniec swojej tury połóż Wieżę Strażniczą w regionie Pól.');
    expect(sw.de.get('defenders')).toBe('Am Ende deines Zuges lege einen Wachturm in eine Feldregion.');
    // A flag raised on the region a player picks (`r.bombed = true`: the glossary's `bombed.mark`) is the effect
    // `plant`, which says where (the choice's `bordersRace(it, holder)`); the terms a rule tests one of, as the
    // clause: `about.bombFace.alone`; what the rule does that no number says goes where its `{effects}`
    // stands, by its effect's template (`effect.empty.do`), as printed.
    expect(sw.en.get('goblins')).toBe("At the end of your turn, you may plant 1 Bomb face down in each adjacent region occupied by an opponent's active race. At the start of your turn, flip each Bomb: an explosion means the region counts as empty; a dud has no effect.");
    expect(sw.pl.get('goblins')).toBe('Na koniec swojej tury możesz podłożyć 1 Bombę awersem do dołu w każdym regionie sąsiadującym, który zajmowany jest przez Aktywną Rasę przeciwnika. Na początku swojej tury odwróć każdą Bombę: eksplozja oznacza, że region uznaje się za pusty, niewypał nie daje żadnych efektów.');
    expect(sw.de.get('goblins')).toBe('Am Ende deines Zuges darfst du 1 Bombe verdeckt in jede angrenzende Region legen, die vom aktiven Volk eines Gegners besetzt ist. Zu Beginn deines Zuges decke jede Bombe auf: eine Explosion bedeutet, dass die Region als leer gilt; ein Blindgänger bleibt ohne Wirkung.');
    // Qualifying the clause, in the case the template asks for: `about.markerType.with`.
    expect(sw.en.get('archaeologists')).toBe('At the end of your turn, you receive 1 victory coin for each region with an Artifact or a Legendary Place.');
    expect(sw.pl.get('archaeologists')).toBe('Na koniec swojej tury otrzymujesz 1 monetę zwycięstwa za każdy region z Artefaktem lub Legendarnym Miejscem.');
    expect(sw.de.get('archaeologists')).toBe('Am Ende deines Zuges erhältst du 1 Siegmünze für jede Region mit einem Artefakt oder einem Legendären Ort.');
    // A term only the `else` branch tests (draw another Legendary Place when no lake or sea is left) does not qualify the case:
    // it follows it, by its class's `otherwise` form. The lake or sea offered is on the board of the Well's region
    // (`regions where board == r.board`): the relation `same.board`, in the clause's `{relation}`. What the rules give the race a rule picks (`highest(…, it.wellCount)`)
    // names it by `chosen.wellCount.most`, in each language's case and word order.
    expect(sw.en.get('wellOfEternity')).toBe('When a marker is revealed, move it to a Lake or Sea region on the same board (if there is none, draw another Legendary Place). At the end of each player\'s turn, the race with the most regions around the Well of Eternity receives 2 victory coins.');
    expect(sw.pl.get('wellOfEternity')).toBe('Gdy znacznik zostanie odkryty, przenieś go do regionu Jezior lub Mórz na tej samej planszy (jeśli takiego nie ma, wylosuj inne Legendarne Miejsce). Na koniec tury każdego gracza Rasa zajmująca najwięcej regionów wokół Studni Wieczności otrzymuje 2 monety zwycięstwa.');
    expect(sw.de.get('wellOfEternity')).toBe('Wenn ein Marker aufgedeckt wird, versetze ihn in eine See- oder Meeresregion auf demselben Spielplan (gibt es keinen, ziehe einen anderen Legendären Ort). Am Ende des Zuges jedes Spielers erhält das Volk mit den meisten Regionen um den Brunnen der Ewigkeit 2 Siegmünzen.');
    // A count of things with a neighbour that is so (`where any(neighbours(it), …)`) says the relation, by
    // `relation.neighbours.region` with the terms of the neighbour in its `{terms}`; members of one enum said
    // of one thing share their noun (`any.terrain`): alternatives, as printed.
    expect(sw.en.get('fishermen')).toBe('At the end of your turn, you receive 1 victory coin for each region adjacent to a Sea or Lake region.');
    expect(sw.pl.get('fishermen')).toBe('Na koniec swojej tury otrzymujesz 1 monetę zwycięstwa za każdy region sąsiadujący z regionem Mórz lub Jezior.');
    // German writes the shared noun into each word: every part but the last takes the template's `cut` ("Meeres- oder Seeregion").
    expect(sw.de.get('fishermen')).toBe('Am Ende deines Zuges erhältst du 1 Siegmünze für jede Region, die an eine Meeres- oder Seeregion angrenzt.');
    expect(sw.en.get('naga')).toBe('You may conquer Sea regions and Lake regions. You may attack a Sea or Lake region as if it were adjacent for your first conquest.');
    // In an action's `{how}`, before the German verb at the end.
    expect(sw.de.get('gnomes')).toBe('Einmal pro Zug darfst du eine Region auf einem beliebigen Spielplan mit dem Verstärkungswürfel erobern, als wäre sie angrenzend.');
    // What the rule is about goes where the action's template puts `{about}`, before its price, as printed.
    expect(sw.en.get('gnomes')).toBe('Once per turn you may conquer a region on any board with the reinforcement die as if it were adjacent.');
    expect(sw.pl.get('gnomes')).toBe('Raz na turę możesz podbić region na dowolnej planszy z kością Posiłków, traktując go tak, jakby był regionem sąsiadującym.');
  });

  it('an action said by what it does: the effect that is its verb, a price lowered by a number under a floor, a price without another pipeline', () => {
    // `action portal … with conquer` swaps and conquers nothing: said by its effect (`templates.may`), not by `action.conquer`.
    expect(sw.en.get('portalMages')).toBe('Twice per turn you may swap all tokens (except Mountain and Legendary Place markers) between 2 magic regions.');
    // `action stealArtifact …`: the glossary's `steal`, whose words name the Artifact the action requires.
    expect(sw.en.get('ethereals')).toBe('Once per turn you may steal an Artifact marker, moving it from an adjacent region to a region you occupy. Once per turn you may conquer a region with a Legendary Place for 2 race tokens fewer than normal (you must pay at least 1 race token).');
    expect(sw.pl.get('ethereals')).toBe('Raz na turę możesz ukraść znacznik Artefaktu, przekładając go z sąsiadującego regionu na zajmowany przez siebie. Raz na turę możesz podbić region z Legendarnym Miejscem, płacąc 2 żetony Rasy mniej niż normalnie (musisz zapłacić przynajmniej 1 żeton Rasy).');
    expect(sw.de.get('ethereals')).toBe('Einmal pro Zug darfst du einen Artefaktmarker stehlen, indem du ihn aus einer angrenzenden Region in eine von dir besetzte Region versetzt. Einmal pro Zug darfst du eine Region mit einem Legendären Ort für 2 Volksmarker weniger als normal erobern (du musst mindestens 1 Volksmarker einsetzen).');
    expect(sw.de.get('portalMages')).toBe('Zweimal pro Zug darfst du alle Marker (außer Bergmarkern und Markern Legendärer Orte) zwischen 2 magischen Regionen tauschen.');
    // `max(fewestTokens(…), max(1, conquestCost(r) - 2))`: the pipeline's bound is its own rules'; the floor closes the price.
    expect(sw.en.get('frostmourne')).toBe('Once per turn you may conquer a region for 2 race tokens fewer than normal (you must pay at least 1 race token).');
    expect(sw.pl.get('frostmourne')).toBe('Raz na turę możesz podbić region, płacąc 2 żetony Rasy mniej niż normalnie (musisz zapłacić przynajmniej 1 żeton Rasy).');
    expect(sw.de.get('frostmourne')).toBe('Einmal pro Zug darfst du eine Region für 2 Volksmarker weniger als normal erobern (du musst mindestens 1 Volksmarker einsetzen).');
    // `conquestCost(r) - travelCost(r)`: the glossary's `travelCost.less`, with no floor to say; the game's
    // `conquer` requires `reachable(r)` and this action, doing what it does (`conquerWith`), asks it not, nor ties
    // `r` to anything: the glossary's `reachable.waived`, said of the region by `effect.anywhere.about`.
    // Frostmourne, which asks `reachable(r)`, and Portal Mages, which conquers nothing, do not say it.
    expect(sw.en.get('ashesOfAlar')).toBe('Once per turn you may conquer a region on any board as if it were adjacent.');
    expect(sw.pl.get('ashesOfAlar')).toBe('Raz na turę możesz podbić region na dowolnej planszy, traktując go tak, jakby był regionem sąsiadującym.');
    expect(sw.de.get('ashesOfAlar')).toBe('Einmal pro Zug darfst du eine Region auf einem beliebigen Spielplan erobern, als wäre sie angrenzend.');
    // What a `for` over boards gives the player, once for each board; German and Polish word it by the kind's gender (`templates.per.board.gainPer`);
    // `if any(activeRegions(holder), it.board == b)` around it: only each board in the relation `any.activeRegions` (`gainPerRelated`).
    expect(sw.en.get('explorers')).toBe('At the end of your turn, you receive 1 victory coin for each board on which you control at least 1 region.');
    expect(sw.pl.get('explorers')).toBe('Na koniec swojej tury otrzymujesz 1 monetę zwycięstwa za każdą planszę, na której kontrolujesz choć 1 region.');
    expect(sw.de.get('explorers')).toBe('Am Ende deines Zuges erhältst du 1 Siegmünze für jeden Spielplan, auf dem du mindestens 1 Region kontrollierst.');
    // `count(activeRegions(holder) where terrain == home.terrain and it != home)`: the relation `same.terrain`.
    expect(sw.en.get('karazhan')).toBe('At the end of your turn, you receive 1 victory coin for each other region you control of the same type as the region it lies in.');
  });

  it('who pays: a toll of a pipeline said by its own template, a payment from each of the players a `for` walks', () => {
    // `modify wardToll(r) … = value + 2`: the Aegis's toll, by `templates.modify.wardToll.transferIn`.
    // `choose spot in (activeRegions(holder) where …) { … spot.treasure = self }`: the marker put where its player
    // chooses among regions no term picks, the glossary's `treasure.put` (`effect.place.do`), said first.
    expect(sw.en.get('aegisOfAggramar')).toBe('At the end of your turn, place this marker in 1 of the regions you control. The region this marker lies in is immune to conquests and to the effects of special powers and racial abilities until an opponent pays you 2 victory coins.');
    expect(sw.pl.get('aegisOfAggramar')).toBe('Na koniec swojej tury połóż ten znacznik w 1 z kontrolowanych przez siebie regionów. Region, w którym leży ten znacznik, jest odporny na Podboje i efekty Zdolności Specjalnych i umiejętności rasowych, dopóki przeciwnik nie zapłaci Ci 2 monet zwycięstwa.');
    // `for q in players where it != holder { … q.coins -= paid; holder.coins += paid }`: each of them pays (`templates.transferInEach`).
    // …only those the loop's `if bordersRace(spot, q)` keeps: the relation `bordersRace` (`templates.transferInEachRelated`).
    // The marker placed first (`treasure.put`), then the payment: after "and" in German's plain word order.
    expect(sw.en.get('heartOfAzeroth')).toBe('At the end of your turn, place this marker in 1 of the regions you control and each opponent whose active race occupies at least 1 region adjacent to this marker pays you 1 victory coin.');
    expect(sw.pl.get('heartOfAzeroth')).toBe('Na koniec swojej tury połóż ten znacznik w 1 z kontrolowanych przez siebie regionów i każdy przeciwnik, którego Aktywna Rasa zajmuje co najmniej 1 region sąsiadujący z tym znacznikiem, płaci Ci 1 monetę zwycięstwa.');
    expect(sw.de.get('heartOfAzeroth')).toBe('Am Ende deines Zuges lege diesen Marker in 1 der von dir kontrollierten Regionen und jeder Gegner, dessen aktives Volk mindestens 1 an diesen Marker angrenzende Region besetzt, zahlt dir 1 Siegmünze.');
  });

  it('a choice, the terms guarding each number, a pipeline’s value and a compared count, in full', () => {
    // A term the condition tests of the card's own player's thing (`holder.race.faction == neutral`) opens the clauses by `about.faction.own`.
    expect(sw.en.get('battlefield')).toBe('You use the faction bonus twice when conquering 1 race. At the end of your turn, if you control a neutral race, choose the Alliance or the Horde. A neutral race fights for the side you chose.');
    // `{times:adv}`: the adverb Polish prints there ("dwukrotnie"), by `templates.times.adv`.
    expect(sw.pl.get('battlefield')).toBe('Korzystasz z bonusu frakcji dwukrotnie przy Podboju 1 Rasy. Na koniec swojej tury, jeśli kontrolujesz Rasę neutralną, wybierz Przymierze lub Hordę. Rasa neutralna walczy po wybranej przez Ciebie stronie.');
    expect(sw.de.get('battlefield')).toBe('Du nutzt den Fraktionsbonus zweimal beim Erobern von 1 Volk. Am Ende deines Zuges, wenn du ein neutrales Volk kontrollierst, wähle die Allianz oder die Horde. Ein neutrales Volk kämpft für die gewählte Seite.');
    // A term the condition asks a thing not to be (`attacker.race.faction != horde`) is said only by `about.faction.not`, never as what it is.
    expect(sw.en.get('humans')).toBe('Each time a region is conquered, the attacker receives 2 victory coins and you receive 2 victory coins unless the attacker plays the Horde.');
    expect(sw.pl.get('humans')).toBe('Za każdym razem, gdy region zostanie podbity, atakujący otrzymuje 2 monety zwycięstwa i otrzymujesz 2 monety zwycięstwa, chyba że atakujący gra Hordą.');
    expect(sw.de.get('humans')).toBe('Jedes Mal, wenn eine Region erobert wird, erhält der Angreifer 2 Siegmünzen und du erhältst 2 Siegmünzen, wenn der Angreifer nicht die Horde spielt.');
    expect(sw.en.get('worgen')).toBe(
      'At the start of your turn, choose human form or Worgen form, you receive 2 victory coins in human form, and you pay 1 victory coin in Worgen form. You may not put your race into decline this turn. You conquer a region for 1 race token fewer than normal in Worgen form (you must pay at least 1 race token).',
    );
    expect(sw.en.get('conquerors')).toBe('Each time a region is conquered, if it was defended by at least 2 race tokens, you receive as many victory coins.');
    expect(sw.pl.get('conquerors')).toBe('Za każdym razem, gdy region zostanie podbity, jeśli broniły go co najmniej 2 żetony Rasy, otrzymujesz tyle samo monet zwycięstwa.');
    // German puts the verb second after an opening moment (`timed`) and after the subject otherwise (`plain`).
    expect(sw.de.get('aegisOfAggramar')).toBe('Am Ende deines Zuges lege diesen Marker in 1 der von dir kontrollierten Regionen. Die Region, in der dieser Marker liegt, ist immun gegen Eroberungen und gegen die Effekte von Sonderfähigkeiten und Volksfähigkeiten, bis ein Gegner dir 2 Siegmünzen zahlt.');
    // Only the first clause after the moment is `timed`; a duration goes where the template's `{until}` puts it.
    expect(sw.de.get('forsaken')).toBe('Beim Umverteilen zahlst du 1 Siegmünze und du erhältst 1 Volksmarker.');
    expect(sw.de.get('theSlayer')).toBe('Einmal pro Zug darfst du eine Region für 1 Volksmarker erobern und du zahlst einem Gegner 2 Siegmünzen.');
    expect(sw.de.get('worgen')).toContain('Du darfst dein Volk in diesem Zug nicht in den Niedergang schicken.');
  });

  it('WotLK and Wroth: what a pipeline’s number or a compared distance changes, with its verb', () => {
    const wotlk = { en: lines(draftTexts(contextOf('wotlk'), 'en').yaml), pl: lines(draftTexts(contextOf('wotlk'), 'pl').yaml) };
    // `{count} more {unit}`: a word between the number and its unit. A frame's `timed` form says the limit where `{limit}` stands.
    expect(wotlk.en.get('jaina')).toBe('Action, once per turn: move to any space up to 4 spaces away. When you fight, you roll 1 more block.');
    // A hero moving herself is worded apart from one moving another (`compare.distance.atMostAnother`: Tirion's "przesuń innego bohatera").
    expect(wotlk.pl.get('jaina')).toBe('Akcja, raz na turę: przenieś się na dowolne pole odległe o maksymalnie 4 pola. Gdy walczysz, rzucasz 1 blok więcej.');
    // Where the amount of a procedure goes, when the player picks it by the action's parameter: `[h.space] + neighbours(h.space)`
    // (`relation.neighbours.eachWithPicked`) and `spaces where color == c` (`relation.one.color.each`), in `strikeArea.n.setRelated`.
    expect(wotlk.en.get('argentCrusaders')).toBe('Deal 5 damage split among the space of a hero and the spaces connected to it.');
    expect(wotlk.pl.get('argentCrusaders')).toBe('Zadaj 5 obrażeń rozdzielonych między pole bohatera i pola z nim połączone.');
    expect(wotlk.en.get('knightsOfTheEbonBlade')).toBe('Deal 3 damage split among the spaces of a single region.');
    expect(wotlk.pl.get('knightsOfTheEbonBlade')).toBe('Zadaj 3 obrażenia rozdzielone między pola jednego regionu.');
    // An action that only sets a field of the card (`self.warded = true`) a modifier reads says that modifier in its frame.
    expect(wotlk.en.get('liadrin')).toBe('Action, once per turn: ghouls are kept off your space until your next turn. When you rest, heal 1 more damage.');
    expect(wotlk.pl.get('liadrin')).toBe('Akcja, raz na turę: ghule nie pojawiają się na Twoim polu do Twojej następnej tury. Gdy odpoczywasz, leczysz 1 obrażenie więcej.');
    // `x = min(cap, x + 1)` gives 1, said by the field's template `field.health.placed`.
    // `require adjacent(here, target)` of an action's parameter: where it must be, by `relation.adjacent.space` in the
    // case the `…Related` template (`field.ghouls.removedRelated`, `effect.fight.related`) asks for.
    // A moment's words may say where the terms a rule is about (`{terms}`) and its conditions (`{condition}`) go, as printed.
    // Card types said of one card share its noun (`any.cardType` around each type's `mod`), as printed.
    expect(wotlk.en.get('sylvanas')).toBe('Action, once per turn: fight on a space connected to yours. When you play a fight or defend card in your turn, heal 1 damage.');
    expect(wotlk.pl.get('sylvanas')).toBe('Akcja, raz na turę: zaatakuj na polu połączonym z Twoim. Gdy zagrywasz kartę Ataku lub kartę Obrony w swojej turze, ulecz 1 obrażenie.');
    expect(wotlk.en.get('varian')).toBe('Action: move ghouls to a connected space so that it holds up to 3 ghouls. Action: remove 1 ghoul from your space and from each connected space.');
    expect(wotlk.pl.get('varian')).toBe('Akcja: przesuń ghule na połączone pole, maksymalnie do 3 ghuli tam. Akcja: usuń 1 ghula ze swojego pola i z każdego połączonego pola.');
    expect(wotlk.en.get('muradin')).toBe('Action: remove 2 ghouls from a space connected to yours. In your quest actions you may lay 1 more card.');
    expect(wotlk.pl.get('muradin')).toBe('Akcja: usuń 2 ghule z pola połączonego z Twoim. W swoich akcjach misji możesz wyłożyć 1 kartę więcej.');
    // `require h != self` of an action's parameter: `{another}` says it by `another.hero`, in the template's case; the reading needs its words.
    expect(wotlk.en.get('tirion')).toBe('When you fight, you may count any blocks as successes. Action: move another hero to any space up to 2 spaces away.');
    expect(wotlk.pl.get('tirion')).toBe('Gdy walczysz, możesz liczyć dowolne bloki jako sukcesy. Akcja: przesuń innego bohatera o maksymalnie 2 pola.');
    // `{agree:word}`: a word after the number in the form `plurals` gives it for that number (Polish few and many).
    expect(wotlk.pl.get('onwardToVictory')).toContain('o maksymalnie 5 pól, rozdzielonych dowolnie');
    const wroth = { en: lines(draftTexts(contextOf('wroth'), 'en').yaml), pl: lines(draftTexts(contextOf('wroth'), 'pl').yaml) };
    expect(wroth.en.get('oldMoney')).toBe('Your mine action gains 1 more Korra.');
    expect(wroth.pl.get('oldMoney')).toBe('Twoja Akcja Wydobycia daje 1 Korrę więcej.');
  });

  it('a card whose rules require nothing drafts what they do: what it places, the switch it turns, what it names', () => {
    // Placed in a `for` over regions, on a card nothing else of which a text must say: `placedEach`.
    expect(sw.en.get('sentinels')).toBe('At the end of your turn, place 1 Fortress marker in each region.');
    expect(sw.pl.get('sentinels')).toBe('Na koniec swojej tury połóż 1 znacznik Twierdzy w każdym regionie.');
    expect(sw.de.get('sentinels')).toBe('Am Ende deines Zuges lege 1 Festungsmarker in jede Region.');
    const wotlk = { en: lines(draftTexts(contextOf('wotlk'), 'en').yaml), pl: lines(draftTexts(contextOf('wotlk'), 'pl').yaml) };
    // A modifier's switch (`= false`): `modify.canRest.deny`.
    expect(wotlk.en.get('azjolNerubQuest')).toBe('While this quest is open, heroes cannot take the rest action on the spaces connected to its space.');
    // An action that switches a field of the game on: its frame (a reward's is the clauses alone, as printed) and `sets.quietNight`.
    expect(wotlk.en.get('oneQuietNight')).toBe('Skip summoning ghouls and activating abominations this turn.');
    expect(wotlk.pl.get('oneQuietNight')).toBe('W tej turze pomiń przywołanie ghuli i aktywację plugastw.');
    // A pipeline's minimum of none goes unsaid; what another player gets, by `gainOther` ("3 more actions", "3 dodatkowe akcje": `{agree:dodatkowe}`).
    expect(wotlk.en.get('ulduarQuest')).toBe('Each quest action here cancels 1 success rolled.');
    expect(wotlk.en.get('borrowedTime')).toBe('The active hero gets 3 more actions.');
    expect(wotlk.pl.get('borrowedTime')).toBe('Aktywny bohater otrzymuje 3 dodatkowe akcje.');
    // A card with no rules of its own is what its fields name: the Scourge card of a space.
    expect(wotlk.en.get('sc_nexus')).toBe('The Nexus');
    expect(wotlk.pl.get('sc_nexus')).toBe('Splot');
  });

  it('a class without its own template takes `about.other`; with neither, a TX0401 naming the key and the plain rendering meanwhile', () => {
    const without = (...keys: string[]) => contextOf('smallworld-wow', (f) => (f.path === 'language/en.yaml' ? { ...f, text: keys.reduce((t, k) => t.replace(new RegExp(`^ {6}${k}: \\{ with: .*\\n`, 'm'), ''), f.text) } : f));
    const other = draftTexts(without('faction'), 'en');
    expect(other.warnings).toEqual([]);
    expect(lines(other.yaml).get('orcs')).toBe('Each time a region is conquered, you receive 1 victory coin with the Alliance.');
    const none = draftTexts(without('faction', 'other'), 'en');
    expect(none.warnings.map((w) => w.message)).toContain('no en template `templates.about.faction.with` to render this rule');
    expect(lines(none.yaml).get('orcs')).toBe('Each time a region is conquered, you receive 1 victory coin (the Alliance).');
  });
});
