/**
 * A balance study as one self-contained HTML file (`rulebook simulate --html FILE`): the text
 * report's figures as tables, and the charts of `charts.ts` drawn by Chart.js and its error bars
 * plugin, both inlined, so the file opens anywhere, offline, and can be mailed to a designer.
 * Content names are text, never HTML: they are escaped in the page and written into the charts'
 * JSON with `<` escaped, so a card called `</script><script>…` stays a name.
 * Node only (reads the two libraries from node_modules).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { studyCharts, type ChartNames } from './charts.ts';
import type { ReportContext } from './report.ts';
import type { Figure, Study } from './study.ts';

const require = createRequire(import.meta.url);

/** The browser builds (UMD) of Chart.js and of chartjs-chart-error-bars, read once. */
let libraries: string | undefined;
function chartLibraries(): string {
  libraries ??= [join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), join(dirname(require.resolve('chartjs-chart-error-bars')), 'index.umd.min.js')]
    .map((file) => `<script>${readFileSync(file, 'utf8').replace(/<\/(script)/gi, '<\\/$1')}</script>`)
    .join('\n');
  return libraries;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside a `<script>` element: no `<` (so no `</script>`), no line separators JavaScript would choke on. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function htmlReport(s: Study, ctx: ReportContext): string {
  const names: Required<ChartNames> = { card: ctx.names?.card ?? ((id) => id), kind: ctx.names?.kind ?? ((k) => k || 'cards') };
  const charts = studyCharts(s, names);
  const e = escapeHtml;
  const value = (f: Figure) => (s.cooperative ? `${f.meanScore.toFixed(2)} [${f.scoreLow.toFixed(2)}–${f.scoreHigh.toFixed(2)}]` : `${pct(f.share)} [${pct(f.low)}–${pct(f.high)}]`);
  const flag = (f: Figure) => (f.flag ? `<span class="${f.flag}">${f.flag === 'strong' ? '▲ above' : '▼ below'} the band</span>` : '');
  const table = (title: string, rows: Array<{ label: string } & Figure>) =>
    `<h3>${e(title)}</h3><table><thead><tr><th></th><th>${s.cooperative ? 'mean score [95%]' : 'win share [95%]'}</th><th>mean score</th><th>games</th><th></th></tr></thead><tbody>${rows
      .map((r) => `<tr><td>${e(r.label)}</td><td>${value(r)}</td><td>${r.meanScore.toFixed(1)}</td><td>${r.n}</td><td>${flag(r)}</td></tr>`)
      .join('')}</tbody></table>`;
  const unfinished = (title: string, games: Array<{ seed: number; why: string; budget?: string }>) =>
    games.length ? `<h3>${e(title)} (${games.length})</h3><ul>${games.map((g) => `<li>seed ${g.seed}${g.budget ? ` (${e(g.budget)} budget)` : ''}: ${e(g.why)}</li>`).join('')}</ul>` : '';
  const len = s.length;
  const facts = [
    `${s.games} games of ${s.players} players by ${e(ctx.bots.join('/'))} bots, seeds ${s.seeds.first}–${s.seeds.last}${ctx.seconds === undefined ? '' : `, ${ctx.seconds.toFixed(1)} s`}`,
    `${s.finished} finished, ${s.budgetEnded.length} ended by the evaluation budget, ${s.stuck.length} stuck`,
    `Game length: ${len.choices.mean.toFixed(1)} choices on average (median ${len.choices.median}, 90th percentile ${len.choices.p90})${len.turns ? `; ${len.turns.mean.toFixed(1)} turns (median ${len.turns.median}, 90th percentile ${len.turns.p90})` : ''}`,
    s.cooperative
      ? `One score for the table (a solo or cooperative game). Fair band: the mean score ± ${pct(s.margin)} of the scores' spread, ${s.band.low.toFixed(2)}–${s.band.high.toFixed(2)}.`
      : `Fair band: an even share ${pct(s.even)} ± ${(s.margin * 100).toFixed(1)} points, ${pct(s.band.low)}–${pct(s.band.high)}. A flag means the whole 95% interval lies outside it.`,
    ...(s.firstPlayer ? [`First player: ${pct(s.firstPlayer.share)} [${pct(s.firstPlayer.low)}–${pct(s.firstPlayer.high)}] against an even ${pct(s.firstPlayer.even)}`] : []),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(ctx.title)}: balance study</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; padding: 0 1rem; color: #222; }
.chart { position: relative; margin: 1.5rem 0; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
td, th { padding: .15rem .6rem; text-align: left; border-bottom: 1px solid #eee; }
.strong { color: #2e8b57; } .weak { color: #c0392b; }
</style>
</head>
<body>
<h1>${e(ctx.title)}: balance study</h1>
${facts.map((f) => `<p>${f}</p>`).join('\n')}
${unfinished('Ended by the evaluation budget', s.budgetEnded)}
${unfinished('Stuck', s.stuck)}
<h2>Charts</h2>
${charts.map((c) => `<div class="chart" style="height:${c.height}px"><canvas id="chart-${e(c.id)}" aria-label="${e(c.title)}"></canvas></div>`).join('\n')}
<h2>Figures</h2>
${table('Seats', s.seats.map((x) => ({ ...x, label: x.player })))}
${s.kinds.map((k) => table(`By ${names.kind(k.kind)} held at the end`, k.cards.map((c) => ({ ...c, label: names.card(c.card) })))).join('\n')}
${s.combos.length ? table('The most frequent pairs held together', s.combos.map((c) => ({ ...c, label: c.cards.map(names.card).join(' + ') }))) : ''}
<script type="application/json" id="study-charts">${scriptJson(charts)}</script>
<script type="application/json" id="study">${scriptJson(s)}</script>
${chartLibraries()}
<script>
Chart.register(ChartErrorBars.BarWithErrorBarsController, ChartErrorBars.BarWithErrorBar);
for (const c of JSON.parse(document.getElementById('study-charts').textContent)) new Chart(document.getElementById('chart-' + c.id), c.config);
</script>
</body>
</html>
`;
}
