import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { apply, legalChoices, newGame, type CompiledPack, type GameState, type Value } from '../runtime/index.ts';

/**
 * The samples of the two other games (test/packs/wotlk-sample, test/packs/wroth-sample): each pack
 * compiles without a single diagnostic, and each hard mechanic is played through the real runtime —
 * `newGame`, then `apply` with ids offered by `legalChoices`. A test sets up a position only by
 * editing the public state object (`state.e[id].field = …`) before the choice that starts the
 * mechanic, then checks the exact outcome.
 */

function load(dir: string): CompiledPack {
  const r = compile(readPackFolder(dir));
  expect(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([]);
  expect(r.pack).toBeDefined();
  return r.pack!;
}

/** Applies a choice that must be offered now. */
function act(st: GameState, id: string): GameState {
  const ids = legalChoices(st).map((c) => c.id);
  expect(ids, `\`${id}\` should be offered to ${st.prompt?.player}`).toContain(id);
  const r = apply(st, id);
  if (!r.ok) throw new Error(`${id} was refused: ${r.reason}`);
  return r.state;
}

const field = (st: GameState, id: string, f: string): Value => st.e[id][f];
const sorted = (xs: Value) => [...(xs as string[])].sort();

// ─── Wrath of the Lich King ──────────────────────────────────────────────────

describe('Wrath of the Lich King sample', () => {
  const pack = load('test/packs/wotlk-sample');
  const spaces = pack.byKind.space;

  /** A 2-player game at p1's first action, the board emptied, and step 3 (summoning) set to reveal nothing. */
  function quietBoard(seed = 1): GameState {
    const st = newGame(pack, { players: 2, seed });
    expect(st.prompt?.player).toBe('p1');
    for (const s of spaces) st.e[s].ghouls = 0;
    for (const a of pack.byKind.abomination) st.e[a].space = null;
    st.e.game.scourgeTrack = [0];
    st.e.game.scourge = 1;
    st.e.game.heroDeck = ['fight1a', 'healA'];
    return st;
  }

  it('sets up as the rulebook says: 9 Scourge cards seed the board, the hero deck is 5 piles with one Scourge Rises each', () => {
    const st = newGame(pack, { players: 2, seed: 3 });
    const g = st.e.game;
    expect((g.scourgeDiscard as string[]).length).toBe(9);
    expect((g.scourgeDeck as string[]).length).toBe(3);
    // 3 + 3 ghouls, then 2 on three spaces, then 1 on three spaces; one abomination.
    expect(spaces.reduce((n, s) => n + (st.e[s].ghouls as number), 0)).toBe(15);
    expect(pack.byKind.abomination.filter((a) => st.e[a].space !== null)).toHaveLength(1);
    expect(['liadrin', 'thrall'].map((h) => field(st, h, 'space'))).toEqual(['dalaran', 'warsongHold']);
    expect((st.e.p1.hand as string[]).length).toBe(3);
    // 16 cards − 2 hands of 3 = 10, in 5 piles of 2, each with one Scourge Rises shuffled in: 5 × 3.
    const deck = g.heroDeck as string[];
    expect(deck).toHaveLength(15);
    for (let i = 0; i < 5; i++) expect(deck.slice(3 * i, 3 * i + 3).filter((c) => c.startsWith('rises'))).toHaveLength(1);
  });

  it('The Scourge Rises: the bottom card is drawn, ghouls fill its space to 3, an abomination comes, the discard goes back on top', () => {
    let st = quietBoard(7);
    const g = st.e.game;
    g.scourgeTrack = [2, 0]; // the Scourge Rises moves the marker to 0: nothing is summoned after it
    g.scourgeDeck = ['sc_nexus', 'sc_avalanche', 'sc_wrathgate'];
    g.scourgeDiscard = ['sc_dalaran', 'sc_templeCity'];
    g.heroDeck = ['rises1', 'fight1a', 'healA'];
    g.lichKing = 'purple';
    st.e.wrathgate.ghouls = 1;

    st = act(st, 'endActions');
    const after = st.e.game;
    const deck = after.scourgeDeck as string[];
    expect(sorted(deck.slice(0, 3))).toEqual(['sc_dalaran', 'sc_templeCity', 'sc_wrathgate']);
    expect(deck.slice(3)).toEqual(['sc_nexus', 'sc_avalanche']);
    expect(after.scourgeDiscard).toEqual([]);
    expect(after.scourge).toBe(2);
    expect(after.lichKing).toBe('red');
    expect(st.e.wrathgate.ghouls).toBe(3);
    expect(after.despair).toBe(0);
    // The Scourge Rises goes back to the box; the other card joins the hand.
    expect(st.e.p1.hand).toContain('fight1a');
    expect(st.e.p1.hand).not.toContain('rises1');
    expect(after.heroDiscard).not.toContain('rises1');
    expect(after.heroDeck).toEqual(['healA']);
    // The new abomination then hunts the nearest hero: Liadrin in Dalaran, one step from the Wrathgate.
    expect(st.e.abom1.space).toBe('dalaran');
    expect(st.e.liadrin.health).toBe(6);
    expect(st.e.thrall.health).toBe(7);
    expect(st.prompt?.player).toBe('p2');
  });

  it('The Scourge Rises never overruns, but the reshuffled discard is what the summon draws next', () => {
    let st = quietBoard(11);
    const g = st.e.game;
    g.scourgeTrack = [2, 2];
    g.scourgeDeck = ['sc_nexus', 'sc_avalanche', 'sc_wrathgate'];
    g.scourgeDiscard = ['sc_onslaughtHarbor'];
    g.heroDeck = ['rises1', 'fight1a'];
    st.e.wrathgate.ghouls = 3;

    st = act(st, 'endActions');
    const after = st.e.game;
    // Step 3 of the turn reveals 2 cards from the top: exactly the two reshuffled ones.
    expect(after.scourgeDeck).toEqual(['sc_nexus', 'sc_avalanche']);
    expect(sorted(after.scourgeDiscard)).toEqual(['sc_onslaughtHarbor', 'sc_wrathgate']);
    expect(st.e.onslaughtHarbor.ghouls).toBe(1);
    expect(st.e.wrathgate.ghouls).toBe(3);
    // Only the summon's fourth ghoul is an overrun: 1 despair and a second abomination.
    expect(after.despair).toBe(1);
    expect(['abom1', 'abom2', 'abom3'].map((a) => field(st, a, 'space'))).toEqual(['dalaran', 'dalaran', null]);
    expect(st.e.liadrin.health).toBe(5);
  });

  it('an abomination steps toward the nearest hero; equally short paths go to the neighbour declared first', () => {
    let st = quietBoard();
    st.e.abom1.space = 'warsongHold';
    st.e.liadrin.space = 'azjolNerub';
    st.e.thrall.space = 'azjolNerub';
    // Warsong Hold → Temple City → Azjol-Nerub and Warsong Hold → Valiance Keep → Azjol-Nerub are
    // both 2 steps; Temple City comes first in board.yaml.
    st = act(st, 'endActions');
    expect(st.e.abom1.space).toBe('templeCity');
    expect([st.e.liadrin.health, st.e.thrall.health]).toEqual([7, 7]);
  });

  it('an abomination goes for the nearer hero and strikes on arrival', () => {
    let st = quietBoard();
    st.e.abom1.space = 'templeCity';
    st.e.liadrin.space = 'dalaran'; // 3 steps away
    st.e.thrall.space = 'valianceKeep'; // 1 step away
    st = act(st, 'endActions');
    expect(st.e.abom1.space).toBe('valianceKeep');
    expect([st.e.liadrin.health, st.e.thrall.health]).toEqual([7, 6]);
  });

  it('an abomination on a hero’s space stays and strikes', () => {
    let st = quietBoard();
    st.e.abom1.space = 'dalaran';
    st = act(st, 'endActions');
    expect(st.e.abom1.space).toBe('dalaran');
    expect(st.e.liadrin.health).toBe(6);
  });

  it('heroes at the same distance: the active player decides which the abomination moves toward', () => {
    const start = quietBoard();
    start.e.abom1.space = 'warsongHold';
    start.e.liadrin.space = 'nexus';
    start.e.thrall.space = 'riversHeart';
    const waiting = act(start, 'endActions');
    expect(waiting.prompt?.player).toBe('p1');
    expect(legalChoices(waiting).map((c) => c.id)).toEqual(['choose nexus', 'choose riversHeart']);

    const toThrall = act(waiting, 'choose riversHeart');
    expect(toThrall.e.abom1.space).toBe('riversHeart');
    expect([toThrall.e.liadrin.health, toThrall.e.thrall.health]).toEqual([7, 6]);

    const toLiadrin = act(waiting, 'choose nexus');
    expect(toLiadrin.e.abom1.space).toBe('nexus');
    expect([toLiadrin.e.liadrin.health, toLiadrin.e.thrall.health]).toEqual([6, 7]);
  });

  it('two heroes on the abomination’s new space: the active player decides which is struck', () => {
    let st = quietBoard();
    st.e.abom1.space = 'warsongHold';
    st.e.liadrin.space = 'nexus';
    st.e.thrall.space = 'nexus';
    st = act(st, 'endActions');
    expect(st.e.abom1.space).toBe('nexus');
    expect(legalChoices(st).map((c) => c.id)).toEqual(['choose liadrin', 'choose thrall']);
    st = act(st, 'choose thrall');
    expect([st.e.liadrin.health, st.e.thrall.health]).toEqual([7, 6]);
  });
});

// ─── Wroth ───────────────────────────────────────────────────────────────────

describe('Wroth sample', () => {
  const pack = load('test/packs/wroth-sample');
  const regions = pack.byKind.region;

  /** The player who must pick now, and the pick: the first face offered. */
  function pickFirst(st: GameState): { player: string; state: GameState } {
    const player = st.prompt!.player;
    const choice = legalChoices(st)[0];
    expect(choice.action).toBe('choose');
    return { player, state: act(st, choice.id) };
  }

  /** Every player throws away their dice, turn after turn, until the action phase is over. */
  function discardAll(st: GameState): GameState {
    for (let i = 0; i < 50 && st.prompt?.kind === 'offer'; i++) {
      const discard = legalChoices(st).find((c) => c.action === 'discardDie');
      if (!discard) break;
      st = act(st, discard.id);
    }
    return st;
  }

  function order(first: string, n: number): string[] {
    const i = Number(first.slice(1)) - 1;
    return Array.from({ length: n }, (_, k) => `p${((i + k) % n) + 1}`);
  }

  it('draft, 3 players: two picks each in turn order from the first player, then the last die to the fewest VP', () => {
    let st = newGame(pack, { players: 3, seed: 5 });
    expect(legalChoices(st).map((c) => c.id)).toEqual(['choose versus', 'choose coop']);
    st.e.aldan.vp = 4;
    st.e.koda.vp = 2; // p2: the fewest
    st.e.guild.vp = 5;
    st = act(st, 'choose versus');

    const pool = [...(st.e.game.pool as string[])];
    expect(pool).toHaveLength(7);
    const first = st.e.game.first as string;
    const expected = [...order(first, 3), ...order(first, 3)];
    const pickedBy: string[] = [];
    for (let i = 0; i < 6; i++) {
      // Options: each face still in the pool, once.
      const faces = ['mine', 'extend', 'maneuver', 'battle'].filter((f) => (st.e.game.pool as string[]).includes(f));
      expect(legalChoices(st).map((c) => c.id)).toEqual(faces.map((f) => `choose ${f}`));
      expect((st.e.game.pool as string[]).length).toBe(7 - i);
      const r = pickFirst(st);
      pickedBy.push(r.player);
      st = r.state;
    }
    expect(pickedBy).toEqual(expected);
    expect(st.e.game.pool).toEqual([]);
    expect([st.e.p1.dice, st.e.p2.dice, st.e.p3.dice].map((d) => (d as string[]).length)).toEqual([2, 3, 2]);
    // The seven dice are all accounted for, faces unchanged.
    expect([...(st.e.p1.dice as string[]), ...(st.e.p2.dice as string[]), ...(st.e.p3.dice as string[])].sort()).toEqual([...pool].sort());
    expect(st.log.some((l) => l.text === 'Player 2 has the fewest VP and takes the last die: ' + (st.e.p2.dice as string[])[2])).toBe(true);
  });

  it('draft: a tie for the fewest VP leaves the last die to nobody', () => {
    let st = newGame(pack, { players: 3, seed: 6 });
    st.e.aldan.vp = 2;
    st.e.koda.vp = 2;
    st.e.guild.vp = 5;
    st = act(st, 'choose versus');
    for (let i = 0; i < 6; i++) st = pickFirst(st).state;
    expect(st.e.game.pool).toEqual([]);
    expect([st.e.p1.dice, st.e.p2.dice, st.e.p3.dice].map((d) => (d as string[]).length)).toEqual([2, 2, 2]);
  });

  it('draft, 2 players: three picks each, alternating; the next round starts with the next player', () => {
    let st = newGame(pack, { players: 2, seed: 2 });
    st.e.aldan.vp = 1; // p2 (Koda, 0 VP) has the fewer
    st = act(st, 'choose versus');
    const first = st.e.game.first as string;
    const pickedBy: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = pickFirst(st);
      pickedBy.push(r.player);
      st = r.state;
    }
    expect(pickedBy).toEqual([...order(first, 2), ...order(first, 2), ...order(first, 2)]);
    expect([(st.e.p1.dice as string[]).length, (st.e.p2.dice as string[]).length]).toEqual([3, 4]);
    // Round 2: the first player marker has passed on.
    st = discardAll(st);
    expect(st.e.game.round).toBe(2);
    expect(st.e.game.first).toBe(order(first, 2)[1]);
    expect(st.prompt?.player).toBe(order(first, 2)[1]);
  });

  it('draft, solo: the player picks three, the AI faction takes the last die', () => {
    let st = newGame(pack, { players: 1, seed: 4 });
    expect(st.e.game.variant).toBe('coop');
    const pool = [...(st.e.game.pool as string[])];
    expect(pool).toHaveLength(4);
    for (let i = 0; i < 3; i++) st = pickFirst(st).state;
    expect((st.e.p1.dice as string[]).length).toBe(3);
    expect(st.e.game.pool).toEqual([]);
    expect([...(st.e.p1.dice as string[]), st.e.game.aiDie as string].sort()).toEqual(pool.sort());
  });

  /** A solo game at the player's first action: the map emptied, the AI about to act with `die`. */
  function aiAbout(die: string, seed = 9): GameState {
    let st = newGame(pack, { players: 1, seed });
    for (let i = 0; i < 3; i++) st = pickFirst(st).state;
    expect(st.prompt?.kind).toBe('offer');
    for (const r of regions) st.e[r].troops = [];
    for (const e of pack.byKind.elite) st.e[e].region = null;
    st.e.game.aiDie = die;
    return st;
  }
  const troops = (st: GameState) => Object.fromEntries(regions.map((r) => [r, st.e[r].troops]).filter(([, t]) => (t as string[]).length));
  const playerTurn = (st: GameState) => act(st, legalChoices(st).find((c) => c.action === 'discardDie')!.id);

  it('AI battle: the region of highest threat it occupies or borders, ties to the lowest number, threat counted again', () => {
    let st = aiAbout('battle');
    st.e.r3.troops = ['runen'];
    st.e.r2.troops = ['aldan', 'aldan'];
    st.e.r4.troops = ['aldan', 'aldan'];
    st.e.r7.troops = ['aldan', 'aldan'];
    st.e.r6.troops = ['aldan', 'aldan', 'aldan', 'aldan']; // threat 4, but not next to the AI
    st = playerTurn(st);
    // First attack: r2, r4 and r7 tie at 2 → r2. Second: r4 and r7 tie at 2 → r4.
    expect(troops(st)).toEqual({ r2: ['aldan'], r3: ['runen'], r4: ['aldan'], r6: ['aldan', 'aldan', 'aldan', 'aldan'], r7: ['aldan', 'aldan'] });
    expect(st.e.aldan.discard).toBe(2);
    expect(st.log.filter((l) => l.text.startsWith('The AI attacks')).map((l) => l.text)).toEqual(['The AI attacks Region 2 (threat 2)', 'The AI attacks Region 4 (threat 2)']);
  });

  it('AI battle: an elite adds 3 to the threat and takes the hits before basic troops', () => {
    let st = aiAbout('battle');
    st.e.r3.troops = ['runen'];
    st.e.r2.troops = ['aldan', 'aldan'];
    st.e.r8.troops = [];
    st.e.wynden1.region = 'r8';
    st.e.wynden1.health = 3;
    st = playerTurn(st);
    expect(st.e.wynden1).toEqual({ region: 'r8', health: 1 });
    expect(st.e.r2.troops).toEqual(['aldan', 'aldan']);
  });

  it('AI extend: four troops to the threatened region it holds, ties to the lowest number', () => {
    let st = aiAbout('extend');
    const supply = st.e.runen.supply as number;
    st.e.r5.troops = ['runen', 'aldan'];
    st.e.r8.troops = ['runen', 'aldan'];
    st.e.r1.troops = ['aldan', 'aldan', 'aldan']; // no AI troop there
    st = playerTurn(st);
    expect(st.e.r5.troops).toEqual(['runen', 'aldan', 'runen', 'runen', 'runen', 'runen']);
    expect(st.e.r8.troops).toEqual(['runen', 'aldan']);
    expect(st.e.runen.supply).toBe(supply - 4);
  });

  it('AI maneuver: disperses from its biggest region, elites to the most threatened neighbour, troops one by one in number order', () => {
    let st = aiAbout('maneuver');
    st.e.r7.troops = ['runen', 'runen', 'runen', 'runen', 'runen', 'runen', 'runen'];
    st.e.ram1.region = 'r7';
    st.e.ram1.health = 4;
    st.e.r5.troops = ['runen'];
    st.e.r3.troops = ['aldan', 'aldan']; // the most threatened neighbour of r7 (r1, r2, r3, r6, r8)
    st.e.r8.troops = ['aldan'];
    st = playerTurn(st);
    expect(st.e.ram1.region).toBe('r3');
    expect(troops(st)).toEqual({
      r1: ['runen', 'runen'],
      r2: ['runen'],
      r3: ['aldan', 'aldan', 'runen'],
      r5: ['runen'],
      r6: ['runen'],
      r7: ['runen'],
      r8: ['aldan', 'runen'],
    });
  });
});
