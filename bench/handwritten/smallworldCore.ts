/**
 * Small World's core rules — no race ability, no special power, no artifact or place — written by
 * hand in plain TypeScript for speed: typed arrays for the regions, moves as numbers, the state
 * changed in place. The yardstick for the same rules as a pack (bench/smallworldCorePack.ts).
 *
 * It follows content/smallworld-wow/rules/ step for step where a step draws a random number or
 * orders the choices, so that the same seed and the same picks play the same game: the boards laid
 * as `layIslands` lays them, the stacks shuffled as the runtime shuffles, choices listed in the
 * order the runtime lists them (the offered actions in their order, each parameter's domain in
 * entity order). The map and the printed numbers of the cards are data, read from the compiled pack.
 */
import type { CompiledPack } from '../../runtime/index.ts';
import { nextRandom, seedState } from '../../runtime/rng.ts';

export interface SmallWorldData {
  regions: Array<{ id: string; board: string; terrain: string; adjacent: number[]; anchor: boolean; murloc: boolean; mountain: boolean }>;
  races: Array<{ id: string; tokens: number; faction: string }>;
  powers: Array<{ id: string; tokens: number; persistsInDecline: boolean }>;
}

/** The map and the cards' numbers of a Small World pack. */
export function smallWorldData(pack: CompiledPack): SmallWorldData {
  const ids = pack.byKind.region;
  const index = new Map(ids.map((id, i) => [id, i]));
  const props = (id: string) => pack.entities[id].props as Record<string, unknown>;
  const links = ids.map(() => new Set<number>());
  ids.forEach((id, i) => {
    for (const to of props(id).adjacent as string[]) {
      links[i].add(index.get(to)!);
      links[index.get(to)!].add(i);
    }
  });
  return {
    regions: ids.map((id, i) => {
      const p = props(id);
      return { id, board: p.board as string, terrain: p.terrain as string, adjacent: [...links[i]], anchor: p.anchor === true, murloc: p.murloc === true, mountain: p.mountain === true };
    }),
    races: pack.byKind.race.map((id) => ({ id, tokens: props(id).tokens as number, faction: props(id).faction as string })),
    powers: pack.byKind.power.map((id) => ({ id, tokens: props(id).tokens as number, persistsInDecline: props(id).persistsInDecline === true })),
  };
}

// A move is a number: its kind in the low 3 bits, then a region or column place, then a count.
const PICK = 0;
const CONQUER = 1;
const REINFORCE = 2;
const ABANDON = 3;
const DECLINE = 4;
const STOP = 5;
const DEPLOY = 6;
const move = (kind: number, arg = 0, n = 0) => kind | (arg << 3) | (n << 13);

const REINFORCEMENT = [0, 0, 0, 1, 2, 3];
const CONQUERING = 0;
const REDEPLOYING = 1;
const DONE = 2;
const enum Asked {
  Pick,
  Conquest,
  Deploy,
  Over,
}

export class SmallWorldCore {
  private rng: number;
  private readonly n: number;
  private readonly R: number;
  private readonly inPlay: number[] = [];
  // Regions.
  private readonly owner: Int8Array;
  private readonly race: Int8Array;
  private readonly tokens: Int16Array;
  private readonly declined: Uint8Array;
  private readonly murlocs: Uint8Array;
  private readonly conquerable: Uint8Array;
  // Players.
  readonly coins: Int32Array;
  private readonly pRace: Int8Array;
  private readonly pPower: Int8Array;
  private readonly pDeclined: Int8Array;
  private readonly pDeclinedPower: Int8Array;
  private readonly hand: Int16Array;
  private readonly stage: Uint8Array;
  private readonly picked: Uint8Array;
  private readonly conquests: Int16Array;
  private readonly beaten: number[][];
  // The game.
  private round = 1;
  private readonly rounds: number;
  private readonly bounty: Int32Array;
  private raceStack: number[];
  private powerStack: number[];
  private powerDiscard: number[] = [];
  private readonly columnRaces: number[] = [];
  private readonly columnPowers: number[] = [];
  // Where the flow stands: whose turn, who is asked what, and how far the rules' bounded loops are.
  private active = 0;
  private asked = 0;
  private phase = Asked.Pick;
  private offers = 0;
  private toPlace: number[] = [];
  private placingSelf = false;
  readonly choices: number[] = [];

  constructor(
    private readonly data: SmallWorldData,
    players: number,
    seed: number,
  ) {
    this.n = players;
    this.R = data.regions.length;
    this.rng = seedState(seed);
    const R = this.R;
    this.owner = new Int8Array(R).fill(-1);
    this.race = new Int8Array(R).fill(-1);
    this.tokens = new Int16Array(R);
    this.declined = new Uint8Array(R);
    this.murlocs = new Uint8Array(R);
    this.conquerable = new Uint8Array(R);
    this.coins = new Int32Array(players).fill(5);
    this.pRace = new Int8Array(players).fill(-1);
    this.pPower = new Int8Array(players).fill(-1);
    this.pDeclined = new Int8Array(players).fill(-1);
    this.pDeclinedPower = new Int8Array(players).fill(-1);
    this.hand = new Int16Array(players);
    this.stage = new Uint8Array(players);
    this.picked = new Uint8Array(players);
    this.conquests = new Int16Array(players);
    this.beaten = Array.from({ length: players }, () => []);
    this.bounty = new Int32Array(data.races.length);
    this.rounds = players === 5 ? 8 : players === 4 ? 9 : 10;
    const boards = this.layIslands();
    data.regions.forEach((r, i) => {
      if (!boards.has(r.board)) return;
      this.inPlay.push(i);
      this.conquerable[i] = r.terrain !== 'sea' && r.terrain !== 'lake' ? 1 : 0;
      if (r.murloc) this.murlocs[i] = 1;
    });
    this.raceStack = data.races.map((_, i) => i);
    this.shuffle(this.raceStack);
    this.powerStack = data.powers.map((_, i) => i);
    this.shuffle(this.powerStack);
    for (let k = 0; k < 6; k++) this.refillColumn();
    this.startTurn(0);
  }

  get over(): boolean {
    return this.phase === Asked.Over;
  }

  /** Final standings: coins, then race tokens on the board, higher first (seat order on a full tie). */
  standings(): Array<{ player: string; score: number; tiebreak: number }> {
    const rows = Array.from({ length: this.n }, (_, p) => {
      let onBoard = 0;
      for (let r = 0; r < this.R; r++) if (this.owner[r] === p) onBoard += this.tokens[r];
      return { player: `p${p + 1}`, score: this.coins[p], tiebreak: onBoard };
    });
    return rows.sort((a, b) => b.score - a.score || b.tiebreak - a.tiebreak);
  }

  legal(): number[] {
    const out: number[] = [];
    const p = this.asked;
    if (this.phase === Asked.Pick) {
      for (let place = 1; place <= this.columnRaces.length; place++) if (this.coins[p] >= place - 1) out.push(move(PICK, place));
    } else if (this.phase === Asked.Conquest) {
      if (this.pRace[p] >= 0) {
        const hand = this.hand[p];
        for (const r of this.inPlay) if (hand >= 1 && this.canAttack(r, p) && hand >= this.cost(r, p)) out.push(move(CONQUER, r));
        for (const r of this.inPlay) {
          if (hand < 1 || !this.canAttack(r, p)) continue;
          const cost = this.cost(r, p);
          if (hand < cost && cost - hand <= 3) out.push(move(REINFORCE, r));
        }
        if (this.conquests[p] === 0) for (let r = 0; r < this.R; r++) if (this.owner[r] === p && !this.declined[r]) out.push(move(ABANDON, r));
        if (this.pPower[p] >= 0 && !this.picked[p] && this.conquests[p] === 0) out.push(move(DECLINE));
        out.push(move(STOP));
      }
    } else if (this.phase === Asked.Deploy) {
      for (let r = 0; r < this.R; r++) {
        if (this.owner[r] !== p || this.declined[r]) continue;
        for (let k = 1; k <= this.hand[p]; k++) out.push(move(DEPLOY, r, k));
      }
    }
    return out;
  }

  /** The pack's id for a move: `conquer small1a_03`, `deploy small1a_03 2`. */
  idOf(m: number): string {
    const arg = (m >> 3) & 1023;
    const region = () => this.data.regions[arg].id;
    switch (m & 7) {
      case PICK:
        return `pick ${arg}`;
      case CONQUER:
        return `conquer ${region()}`;
      case REINFORCE:
        return `reinforce ${region()}`;
      case ABANDON:
        return `abandon ${region()}`;
      case DECLINE:
        return 'decline';
      case STOP:
        return 'stopConquering';
      default:
        return `deploy ${region()} ${m >> 13}`;
    }
  }

  /** Plays a move that `legal()` listed. */
  play(m: number): void {
    this.choices.push(m);
    const p = this.asked;
    const arg = (m >> 3) & 1023;
    switch (m & 7) {
      case PICK:
        this.pick(p, arg);
        this.phase = Asked.Conquest;
        this.offers = 0;
        return this.nextConquest();
      case CONQUER:
        this.occupy(p, arg, this.cost(arg, p));
        return this.nextConquest();
      case REINFORCE: {
        const cost = this.cost(arg, p);
        const bonus = REINFORCEMENT[this.randomInt(6)];
        if (this.hand[p] + bonus >= cost) this.occupy(p, arg, this.hand[p]);
        this.stage[p] = REDEPLOYING;
        return this.nextConquest();
      }
      case ABANDON:
        this.hand[p] += this.tokens[arg];
        this.emptyRegion(arg);
        return this.nextConquest();
      case DECLINE:
        this.decline(p);
        return this.nextConquest();
      case STOP:
        this.stage[p] = REDEPLOYING;
        return this.nextConquest();
      default:
        this.tokens[arg] += m >> 13;
        this.hand[p] -= m >> 13;
        return this.nextPlacement();
    }
  }

  // ─── the flow (rules/game.yaml `flow`, `playTurn`; rules/redeploy.yaml) ───

  private startTurn(p: number): void {
    this.active = p;
    this.asked = p;
    this.conquests[p] = 0;
    this.beaten[p] = [];
    this.picked[p] = 0;
    this.stage[p] = CONQUERING;
    this.offers = 0;
    if (this.pRace[p] < 0) {
      this.phase = Asked.Pick;
      return;
    }
    this.readyTroops(p);
    this.phase = Asked.Conquest;
    this.nextConquest();
  }

  /** `loop max 200 { if p.stage != conquering { break } offer p: conquer, … }` */
  private nextConquest(): void {
    const p = this.active;
    if (this.stage[p] === CONQUERING && this.offers < 200) {
      this.offers++;
      this.phase = Asked.Conquest;
      return;
    }
    if (this.stage[p] === REDEPLOYING) {
      this.readyTroops(p);
      this.placingSelf = true;
      this.asked = p;
      this.offers = 0;
      return this.nextPlacement();
    }
    this.opponentsRedeploy();
  }

  private opponentsRedeploy(): void {
    this.placingSelf = false;
    this.toPlace = [];
    for (let q = 0; q < this.n; q++) if (q !== this.active && this.hand[q] > 0) this.toPlace.push(q);
    this.nextOpponent();
  }

  private nextOpponent(): void {
    const q = this.toPlace.shift();
    if (q === undefined) return this.endTurn();
    this.asked = q;
    this.offers = 0;
    this.nextPlacement();
  }

  /** `placeHand`: `loop max 100 { if p.hand == 0 or count(activeRegions(p)) == 0 { break } offer p: deploy }` */
  private nextPlacement(): void {
    const q = this.asked;
    if (this.hand[q] > 0 && this.offers < 100 && this.holdsActive(q)) {
      this.offers++;
      this.phase = Asked.Deploy;
      return;
    }
    if (this.placingSelf) this.opponentsRedeploy();
    else this.nextOpponent();
  }

  private endTurn(): void {
    this.score(this.active);
    if (this.active + 1 < this.n) return this.startTurn(this.active + 1);
    if (this.round >= this.rounds) {
      this.phase = Asked.Over;
      return;
    }
    this.round++;
    this.startTurn(0);
  }

  // ─── the rules ───

  private randomInt(n: number): number {
    const r = nextRandom(this.rng);
    this.rng = r.state;
    return Math.floor(r.value * n);
  }

  private shuffle(xs: number[]): void {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.randomInt(i + 1);
      const t = xs[i];
      xs[i] = xs[j];
      xs[j] = t;
    }
  }

  private layIslands(): Set<string> {
    const boards = new Set<string>();
    const layBoard = (a: string, b: string) => boards.add(this.randomInt(2) === 0 ? a : b);
    const layOneOf = (a1: string, b1: string, a2: string, b2: string) => (this.randomInt(2) === 0 ? layBoard(a1, b1) : layBoard(a2, b2));
    if (this.n === 5) {
      layBoard('large1a', 'large1b');
      layBoard('large2a', 'large2b');
      layOneOf('medium1a', 'medium1b', 'medium2a', 'medium2b');
      layBoard('small1a', 'small1b');
      layBoard('small2a', 'small2b');
    } else {
      layOneOf('large1a', 'large1b', 'large2a', 'large2b');
      if (this.n === 3) layOneOf('medium1a', 'medium1b', 'medium2a', 'medium2b');
      if (this.n === 4) {
        layBoard('medium1a', 'medium1b');
        layBoard('medium2a', 'medium2b');
      }
      layOneOf('small1a', 'small1b', 'small2a', 'small2b');
    }
    return boards;
  }

  private refillColumn(): void {
    if (this.powerStack.length === 0) {
      this.powerStack = this.powerDiscard;
      this.powerDiscard = [];
      this.shuffle(this.powerStack);
    }
    if (this.raceStack.length > 0 && this.powerStack.length > 0) {
      this.columnRaces.push(this.raceStack.shift()!);
      this.columnPowers.push(this.powerStack.shift()!);
    }
  }

  private pick(p: number, place: number): void {
    for (let i = 0; i < place - 1; i++) this.bounty[this.columnRaces[i]]++;
    const race = this.columnRaces[place - 1];
    const power = this.columnPowers[place - 1];
    this.coins[p] += this.bounty[race] - (place - 1);
    this.bounty[race] = 0;
    this.columnRaces.splice(place - 1, 1);
    this.columnPowers.splice(place - 1, 1);
    this.refillColumn();
    this.pRace[p] = race;
    this.pPower[p] = power;
    this.hand[p] = this.data.races[race].tokens + this.data.powers[power].tokens;
    this.picked[p] = 1;
  }

  private bordersRace(r: number, p: number): boolean {
    for (const x of this.data.regions[r].adjacent) if (this.owner[x] === p && !this.declined[x]) return true;
    return false;
  }

  private canAttack(r: number, p: number): boolean {
    if (!this.conquerable[r] || (this.owner[r] === p && !this.declined[r])) return false;
    return this.data.regions[r].anchor || this.bordersRace(r, p);
  }

  private cost(r: number, p: number): number {
    const region = this.data.regions[r];
    const travel = region.anchor && !this.bordersRace(r, p) ? 1 : 0;
    // Only another player's race tokens defend: the player's own race in decline adds nothing.
    const defenders = this.owner[r] === p ? 0 : this.tokens[r];
    return Math.max(1, 2 + defenders + this.murlocs[r] + travel + (region.mountain ? 1 : 0));
  }

  private occupy(p: number, r: number, used: number): void {
    const loser = this.owner[r];
    const lostRace = this.race[r];
    if (lostRace >= 0 && !this.beaten[p].includes(lostRace)) this.beaten[p].push(lostRace);
    if (loser >= 0 && lostRace >= 0 && !this.declined[r]) this.hand[loser] += this.tokens[r] - (this.tokens[r] > 0 ? 1 : 0);
    this.murlocs[r] = 0;
    this.tokens[r] = used;
    this.race[r] = this.pRace[p];
    this.owner[r] = p;
    this.declined[r] = 0;
    this.hand[p] -= used;
    this.conquests[p]++;
    // A race in decline whose last region fell goes under the race stack, its lasting badge discarded.
    if (loser >= 0 && lostRace >= 0 && this.pDeclined[loser] === lostRace && !this.race.includes(lostRace)) {
      this.pDeclined[loser] = -1;
      if (this.pDeclinedPower[loser] >= 0) {
        this.powerDiscard.push(this.pDeclinedPower[loser]);
        this.pDeclinedPower[loser] = -1;
      }
      this.raceStack.push(lostRace);
    }
  }

  private emptyRegion(r: number): void {
    this.tokens[r] = 0;
    this.race[r] = -1;
    this.owner[r] = -1;
    this.declined[r] = 0;
  }

  private holdsActive(p: number): boolean {
    for (let r = 0; r < this.R; r++) if (this.owner[r] === p && !this.declined[r]) return true;
    return false;
  }

  private readyTroops(p: number): void {
    for (let r = 0; r < this.R; r++) {
      if (this.owner[r] !== p || this.declined[r] || this.tokens[r] <= 1) continue;
      this.hand[p] += this.tokens[r] - 1;
      this.tokens[r] = 1;
    }
  }

  private decline(p: number): void {
    const old = this.pDeclined[p];
    if (old >= 0) {
      for (let r = 0; r < this.R; r++) if (this.race[r] === old) this.emptyRegion(r);
      this.raceStack.push(old);
    }
    if (this.pDeclinedPower[p] >= 0) {
      this.powerDiscard.push(this.pDeclinedPower[p]);
      this.pDeclinedPower[p] = -1;
    }
    for (let r = 0; r < this.R; r++) {
      if (this.owner[r] !== p || this.declined[r]) continue;
      this.tokens[r] = 1;
      this.declined[r] = 1;
    }
    this.pDeclined[p] = this.pRace[p];
    if (this.data.powers[this.pPower[p]].persistsInDecline) this.pDeclinedPower[p] = this.pPower[p];
    else this.powerDiscard.push(this.pPower[p]);
    this.pRace[p] = -1;
    this.pPower[p] = -1;
    this.hand[p] = 0;
    this.stage[p] = DONE;
  }

  private score(p: number): void {
    for (let r = 0; r < this.R; r++) if (this.owner[r] === p) this.coins[p]++;
    const side = this.pRace[p] >= 0 ? this.data.races[this.pRace[p]].faction : null;
    for (const x of this.beaten[p]) {
      const f = this.data.races[x].faction;
      if ((side === 'alliance' && f === 'horde') || (side === 'horde' && f === 'alliance')) this.coins[p]++;
    }
  }
}

/** A game played to its end by the bench's random picks: the same picks as a pack's game on the same seed. */
export function playSmallWorldCore(data: SmallWorldData, players: number, seed: number, pick: (n: number) => number): SmallWorldCore {
  const g = new SmallWorldCore(data, players, seed);
  while (!g.over) {
    const legal = g.legal();
    g.play(legal[pick(legal.length)]);
  }
  return g;
}
