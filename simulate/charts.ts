/**
 * The charts of a balance study, as Chart.js configurations (with the error bars of
 * chartjs-chart-error-bars): win share by seat and by card with their 95% intervals, the fair band,
 * score distributions and game lengths. Plain data, no functions and no DOM, so that
 * `rulebook simulate --html` writes them into a file as JSON and the playground's Balance tab draws
 * the same ones.
 */
import type { Figure, Histogram, Study } from './study.ts';

/** A Chart.js configuration, kept as plain JSON. */
export type ChartConfig = { type: string; data: { labels: string[]; datasets: Array<Record<string, unknown>> }; options: Record<string, unknown> };

export interface ChartSpec {
  /** Stable, for tests and for the page's element ids. */
  id: string;
  title: string;
  /** Pixels: bar charts of many cards grow with their cards. */
  height: number;
  config: ChartConfig;
}

export interface ChartNames {
  /** A card's display name (its id by default). */
  card?: (id: string) => string;
  /** A kind's display name, plural (its id by default). */
  kind?: (kind: string) => string;
}

const COLOURS = { bar: '#5b7db1', strong: '#2e8b57', weak: '#c0392b', band: '#999999' };
const SERIES = ['#5b7db1', '#e09f3e', '#2e8b57', '#9b59b6', '#c0392b', '#16a085', '#7f8c8d', '#d35400'];
const percent = (x: number) => Math.round(x * 1000) / 10;
const round = (x: number) => Math.round(x * 100) / 100;

export function studyCharts(s: Study, names: ChartNames = {}): ChartSpec[] {
  const card = names.card ?? ((id: string) => id);
  const kind = names.kind ?? ((k: string) => k || 'cards');
  const out: ChartSpec[] = [];
  const measured = (f: Figure) => (s.cooperative ? { v: round(f.meanScore), low: round(f.scoreLow), high: round(f.scoreHigh) } : { v: percent(f.share), low: percent(f.low), high: percent(f.high) });
  const axis = s.cooperative ? 'mean score of the table' : 'win share, %';
  const band = s.cooperative ? [round(s.band.low), round(s.band.high)] : [percent(s.band.low), percent(s.band.high)];
  const colour = (f: Figure) => (f.flag ? COLOURS[f.flag] : COLOURS.bar);

  const bars = (id: string, title: string, labels: string[], figures: Figure[], horizontal: boolean): ChartSpec => {
    const [value, min, max] = horizontal ? ['x', 'xMin', 'xMax'] : ['y', 'yMin', 'yMax'];
    const lines = band.map((b, i) => ({ type: 'line', label: i ? 'fair band, high' : 'fair band, low', data: labels.map(() => b), borderColor: COLOURS.band, borderDash: [4, 4], borderWidth: 1, pointRadius: 0, fill: false }));
    return {
      id,
      title,
      height: horizontal ? 60 + 22 * labels.length : 260,
      config: {
        type: 'barWithErrorBars',
        data: {
          labels,
          datasets: [
            { label: title, data: figures.map((f) => ({ [value]: measured(f).v, [min]: measured(f).low, [max]: measured(f).high })), backgroundColor: figures.map(colour) },
            // The band as two dashed lines only reads on a vertical chart; a horizontal one says it in its axis title.
            ...(horizontal ? [] : lines),
          ],
        },
        options: {
          indexAxis: horizontal ? 'y' : 'x',
          animation: false,
          maintainAspectRatio: false,
          plugins: { legend: { display: false }, title: { display: true, text: `${title} (95% intervals; fair band ${band[0]}–${band[1]}${s.cooperative ? '' : '%'})` } },
          scales: { [horizontal ? 'x' : 'y']: { title: { display: true, text: axis }, ...(s.cooperative ? {} : { min: 0, max: 100 }) } },
        },
      },
    };
  };

  out.push(bars('seats', s.cooperative ? 'Mean score by seat' : 'Wins by seat', s.seats.map((x) => x.player), s.seats, false));
  for (const k of s.kinds) out.push(bars(`kind-${k.kind}`, `${s.cooperative ? 'Mean score' : 'Wins'} by ${kind(k.kind)} held at the end`, k.cards.map((c) => card(c.card)), k.cards, true));
  if (s.combos.length) out.push(bars('combos', `${s.cooperative ? 'Mean score' : 'Wins'} of the most frequent pairs held together`, s.combos.map((c) => c.cards.map(card).join(' + ')), s.combos, true));
  out.push(histogramChart('scores', 'Scores of finished games, by seat', s.scores, s.seats.map((x) => x.player), 'score'));
  out.push(histogramChart('length', 'Game length', s.length.histogram, ['games'], 'choices a game'));
  return out;
}

function histogramChart(id: string, title: string, h: Histogram, series: string[], axis: string): ChartSpec {
  const labels = h.edges.slice(0, -1).map((from, i) => {
    const to = h.edges[i + 1];
    const whole = Number.isInteger(from) && Number.isInteger(to);
    return whole ? (to - from === 1 ? `${from}` : `${from}–${to - 1}`) : `${round(from)}–${round(to)}`;
  });
  return {
    id,
    title,
    height: 260,
    config: {
      type: 'bar',
      data: { labels, datasets: h.counts.map((counts, i) => ({ label: series[i], data: counts, backgroundColor: SERIES[i % SERIES.length] })) },
      options: {
        animation: false,
        maintainAspectRatio: false,
        plugins: { legend: { display: series.length > 1 }, title: { display: true, text: title } },
        scales: { x: { title: { display: true, text: axis } }, y: { title: { display: true, text: 'games' }, beginAtZero: true } },
      },
    },
  };
}
