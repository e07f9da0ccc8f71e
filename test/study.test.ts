/**
 * The balance study on real games: Small World played out by bots and studied (shares inside their
 * intervals, cards grouped by the pack's own kinds, flags exactly where the fair band says, the
 * same figures whatever the order of the games or a trip through JSON), games stopped by a rule
 * past its evaluation budget counted apart from the stuck ones, and the study written as text and
 * as an HTML page whose names stay text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { newPackFiles } from '../playground/src/workspace.ts';
import type { CompiledPack } from '../runtime/index.ts';
import { htmlReport } from '../simulate/html.ts';
import { playGame, type GameSummary } from '../simulate/playout.ts';
import { packNames, textReport } from '../simulate/report.ts';
import { DEFAULT_MARGIN, study, TOP_COMBOS, type Figure, type Study } from '../simulate/study.ts';
import { compileFilesOk } from './helpers/inlinePack.ts';

const dir = join(import.meta.dirname, '..', 'content', 'smallworld-wow');
const pack = compile(readPackFolder(dir)).pack!;
const GAMES = 16;
let games: GameSummary[];
let s: Study;
beforeAll(() => {
  games = Array.from({ length: GAMES }, (_, i) => playGame(pack, { players: 2, seed: 100 + i, agents: 'random', maxSteps: 10_000 }));
  s = study(games);
});

/** The playground's starter pack (its players' points, its rounds, its scoring) with these rules in place of its own. */
function starterWith(rules: string): CompiledPack {
  const files = { ...newPackFiles('starter'), 'rules.yaml': `rules: |\n  ${rules.replace(/\n/g, '\n  ')}\n` };
  return compileFilesOk(Object.entries(files).map(([path, text]) => ({ path, text })));
}

const figures = (st: Study): Figure[] => [...st.seats, ...st.kinds.flatMap((k) => k.cards), ...st.combos];

describe('a study of Small World games by bots', () => {
  it('counts every game, and each card once per holder per game', () => {
    expect(s).toMatchObject({ games: GAMES, finished: GAMES, players: 2, even: 0.5, margin: DEFAULT_MARGIN, cooperative: false, measure: 'share', seeds: { first: 100, last: 100 + GAMES - 1 } });
    expect(s.budgetEnded).toEqual([]);
    expect(s.stuck).toEqual([]);
    expect(s.seats.map((x) => x.n)).toEqual([GAMES, GAMES]);
    // Each game has one win to share: the seats' wins add up to the games.
    expect(s.seats.reduce((a, x) => a + x.wins, 0)).toBeCloseTo(GAMES, 9);
    for (const k of s.kinds) {
      for (const c of k.cards) {
        const holders = games.reduce((n, g) => n + (g.held[c.card]?.length ?? 0), 0);
        expect(c.n, c.card).toBe(holders);
      }
    }
  });

  it('groups cards by the pack’s own kinds', () => {
    const kinds = s.kinds.map((k) => k.kind);
    expect(kinds).toEqual([...kinds].sort());
    expect(kinds).toEqual(expect.arrayContaining(['race', 'power']));
    for (const k of s.kinds) for (const c of k.cards) expect(pack.entities[c.card].kind).toBe(k.kind);
  });

  it('gives every share and mean score inside its 95% interval', () => {
    for (const f of figures(s)) {
      expect(f.share).toBe(f.wins / f.n);
      expect(f.low).toBeLessThanOrEqual(f.share);
      expect(f.high).toBeGreaterThanOrEqual(f.share);
      expect(f.scoreLow).toBeLessThanOrEqual(f.meanScore + 1e-9);
      expect(f.scoreHigh).toBeGreaterThanOrEqual(f.meanScore - 1e-9);
    }
  });

  it('flags exactly the figures whose interval lies outside the fair band, as wide as asked', () => {
    for (const margin of [0, DEFAULT_MARGIN, 0.2]) {
      const m = study(games, { margin });
      expect(m.band).toEqual({ low: 0.5 - margin, high: 0.5 + margin });
      for (const f of figures(m)) expect(f.flag).toBe(f.low > m.band.high ? 'strong' : f.high < m.band.low ? 'weak' : undefined);
    }
    // With no margin, a card that won all of its 5 or more games is surely above an even share.
    const zero = study(games, { margin: 0 });
    const sure = zero.kinds.flatMap((k) => k.cards).filter((c) => c.n >= 5 && c.wins === c.n);
    for (const c of sure) expect(c.flag).toBe('strong');
    // A band as wide as all shares flags nothing.
    expect(figures(study(games, { margin: 0.5 })).filter((f) => f.flag)).toEqual([]);
  });

  it('measures the first player against an even share', () => {
    expect(s.firstPlayer).toEqual({ share: s.seats[0].share, low: s.seats[0].low, high: s.seats[0].high, even: 0.5, advantage: s.seats[0].share - 0.5, ...(s.seats[0].flag ? { flag: s.seats[0].flag } : {}) });
  });

  it('shows the most frequent pairs of cards of two kinds held by one player', () => {
    expect(s.combos.length).toBeGreaterThan(0);
    expect(s.combos.length).toBeLessThanOrEqual(TOP_COMBOS);
    for (const c of s.combos) {
      const [a, b] = c.cards;
      expect(pack.entities[a].kind).not.toBe(pack.entities[b].kind);
      const together = games.reduce((n, g) => n + (g.held[a] ?? []).filter((p) => (g.held[b] ?? []).includes(p)).length, 0);
      expect(c.n).toBe(together);
    }
  });

  it('gives game length in choices and turns, and histograms that hold every game', () => {
    const steps = games.map((g) => g.steps).sort((a, b) => a - b);
    expect(s.length.choices.mean).toBeCloseTo(steps.reduce((a, b) => a + b, 0) / GAMES, 9);
    expect(s.length.choices.median).toBe((steps[GAMES / 2 - 1] + steps[GAMES / 2]) / 2);
    expect(s.length.choices.p90).toBe(steps[Math.ceil(0.9 * GAMES) - 1]);
    expect(s.length.turns!.min).toBeGreaterThan(0);
    expect(s.length.histogram.counts[0].reduce((a, b) => a + b, 0)).toBe(GAMES);
    for (const seat of s.scores.counts) expect(seat.reduce((a, b) => a + b, 0)).toBe(GAMES);
    expect(s.scores.edges[0]).toBe(Math.min(...games.flatMap((g) => g.standings.map((r) => r.score))));
  });

  it('is a function of the games alone: any order, any split, through JSON', () => {
    const shuffled = [...games.slice(9), ...games.slice(0, 9).reverse()];
    expect(study(shuffled)).toEqual(s);
    const throughJson = JSON.parse(JSON.stringify(games)) as GameSummary[];
    expect(JSON.stringify(study(throughJson))).toBe(JSON.stringify(s));
  });
});

describe('games ended by the evaluation budget', () => {
  // `spin` runs past the step budget; listing `dig`'s choices does, from the third round on.
  const budgetPack = starterWith(`action gain(n: number in 1..9) "Gain {n}" { me.points += n }
action spin "Spin" {
  repeat 3000000 { me.points += 0 }
}
action dig "Dig" {
  require game.round < 3 or count((1..100000) where any(1..100000, it < 0)) == 0 else "the ground is hard"
  me.points += 1
}
flow {
  for round in 1..4 {
    game.round = round
    for p in players {
      turn p { offer p: gain, spin, dig }
    }
  }
}`);
  let played: GameSummary[];
  let limited: GameSummary;
  beforeAll(() => {
    played = Array.from({ length: 12 }, (_, i) => playGame(budgetPack, { players: 2, seed: i + 1, agents: 'random', maxSteps: 100 }));
    limited = playGame(budgetPack, { players: 2, seed: 1, agents: 'random', maxSteps: 0 });
  });

  it('a game whose rules go past a budget ends there, named for the budget, with its state so far', () => {
    const ended = played.filter((g) => g.budget);
    expect(ended.length).toBe(12);
    for (const g of ended) {
      expect(g.over).toBe(false);
      expect(g.budget).toBe('step');
      expect(g.stuck).toContain('(the step budget)');
    }
    // Some went past it in `spin`'s body, the others while `dig`'s choices were listed.
    expect(ended.some((g) => g.stuck!.startsWith('the legal choice `spin`'))).toBe(true);
    expect(ended.some((g) => g.stuck!.startsWith('the rules were refused at step') && g.steps >= 4)).toBe(true);
  });

  it('is counted apart from the other unfinished games, with its seed', () => {
    const st = study([...played, { ...limited, seed: 99 }]);
    expect(st.games).toBe(13);
    expect(st.finished).toBe(0);
    expect(st.budgetEnded.map((g) => g.seed)).toEqual(played.map((g) => g.seed));
    expect(st.budgetEnded.every((g) => g.budget === 'step' && g.why.includes('step budget'))).toBe(true);
    expect(st.stuck).toEqual([{ seed: 99, why: 'no end after 0 choices' }]);
    const text = textReport(st, { title: 'Test', bots: ['random'] });
    expect(text).toContain('0 finished, 12 ended by the evaluation budget, 1 stuck');
    expect(text).toContain('seed 1 (step budget): ');
    expect(text).toContain('seed 99: no end after 0 choices');
  });

  it("a pack's `require` whose message reads like a budget's end leaves its game stuck, not ended by a budget", () => {
    const mimic = starterWith(`action boast "Boast" {
  me.points += 1
  require me.points > 5 else "the rules ran more than 2,000,000 steps for one choice (the step budget)"
}
flow {
  for p in players {
    turn p { offer p: boast }
  }
}`);
    const g = playGame(mimic, { players: 2, seed: 50, agents: 'random', maxSteps: 100 });
    expect(g.stuck).toBe('the legal choice `boast` was refused at step 1: the rules ran more than 2,000,000 steps for one choice (the step budget)');
    expect(g.budget).toBeUndefined();
    const st = study([played[0], g]);
    expect(st.budgetEnded.map((u) => u.seed)).toEqual([played[0].seed]);
    expect(st.stuck).toEqual([{ seed: 50, why: g.stuck }]);
  });
});

describe('the study as text and as HTML', () => {
  const hostile = '</script><script>alert(1)</script>';
  /** The pack's names, but the first card studied is called `hostile`. */
  const names = () => ({ ...packNames(pack), card: (id: string) => (id === s.kinds[0].cards[0].card ? hostile : packNames(pack).card(id)) });

  it('the text report names cards and kinds as the pack does', () => {
    const text = textReport(s, { title: 'Small World', bots: ['random'], names: packNames(pack) });
    expect(text).toContain(`Small World: ${GAMES} games of 2 players by random bots, seeds 100–${100 + GAMES - 1}`);
    expect(text).toContain('First player: ');
    expect(text).toContain(`Wins of the players holding each of the ${pack.kinds.race.plural} at the end`);
    expect(text).toContain(pack.entities[s.kinds.find((k) => k.kind === 'race')!.cards[0].card].name.en);
  });

  it('writes the charts’ data into the page, and a name as text, never as HTML', () => {
    const html = htmlReport(s, { title: 'Small <World>', bots: ['random'], names: names() });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('<title>Small &#60;World&#62;: balance study</title>');
    expect(html).toContain(`<td>&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;</td>`);
    const json = (id: string) => JSON.parse(html.split(`<script type="application/json" id="${id}">`)[1].split('</script>')[0]);
    const charts = json('study-charts') as Array<{ id: string; config: { data: { labels: string[]; datasets: Array<{ data: unknown[] }> } } }>;
    expect(charts.map((c) => c.id)).toEqual(['seats', ...s.kinds.map((k) => `kind-${k.kind}`), 'combos', 'scores', 'length']);
    const seats = charts.find((c) => c.id === 'seats')!.config.data;
    expect(seats.labels).toEqual(['p1', 'p2']);
    expect(seats.datasets[0].data).toEqual(s.seats.map((x) => ({ y: Math.round(x.share * 1000) / 10, yMin: Math.round(x.low * 1000) / 10, yMax: Math.round(x.high * 1000) / 10 })));
    expect(charts.find((c) => c.id === `kind-${s.kinds[0].kind}`)!.config.data.labels[0]).toBe(hostile);
    expect(json('study')).toEqual(JSON.parse(JSON.stringify(s)));
    // The libraries are inlined: the page needs nothing from the network.
    expect(html).toContain('Chart.js v4');
    expect(html).not.toMatch(/<script[^>]+src=/);
  });
});
