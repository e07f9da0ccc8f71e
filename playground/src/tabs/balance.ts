/**
 * The Balance tab: bots play games on the last good compile, in the engine worker, and the tab
 * shows the balance study (simulate/study.ts) with the charts `rulebook simulate --html` draws
 * (simulate/charts.ts). Results belong to the pack, the rules they were played on and the settings
 * they were asked with: another pack, new rules or other settings show their own results, or none.
 * The bots offered are those the pack can seat (bot-offers.ts); bots an edit of the rules took that
 * away from are replaced by random ones, with a note saying why, until the rules seat them again
 * or the author gives them up (the note's button).
 */
import { BarWithErrorBar, BarWithErrorBarsController } from 'chartjs-chart-error-bars';
import { Chart, registerables, type ChartConfiguration } from 'chart.js';
import { studyCharts } from '../../../simulate/charts.ts';
import type { Figure, Study } from '../../../simulate/study.ts';
import { parseAgentKind, type AgentKind } from '../../../runtime/agents/index.ts';
import { botsPlaying, type BotOffer } from '../bot-offers.ts';
import { h, clear } from '../dom.ts';
import type { AppContext } from '../context.ts';
import type { SimulateRequest, SimulateResponse } from '../protocol.ts';
import type { Tab } from './tab.ts';

Chart.register(...registerables, BarWithErrorBarsController, BarWithErrorBar);

type Bots = SimulateRequest['bots'];

interface Settings {
  games: number;
  players: number;
  bots: Bots;
}

/** A simulation asked for, its progress, then its study. */
interface Run {
  id: number;
  games: number;
  response?: SimulateResponse;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** What a bot of the list does, for the list's tooltip (docs/bots.md says it at length). */
function plays(kind: AgentKind): string {
  const spec = parseAgentKind(kind);
  if (spec.kind === 'random') return 'a uniform pick';
  if (spec.kind === 'greedy') return 'the best lead after playing the rest of its turn (slower)';
  if (spec.kind === 'prefer') return 'the choice that the pack’s scoring: prefer likes most';
  return `a tree search of ${spec.iterations} iterations a decision${spec.team ? ', for the table' : ''} (much slower)`;
}

/** The list's tooltip: what each bot offered does, and why the others are not offered for this pack. */
function botsTitle(offers: readonly BotOffer[]): string {
  const offered = offers.filter((o) => o.refused === undefined).map((o) => `${o.kind}: ${plays(o.kind)}`);
  const refused = offers.filter((o) => o.refused !== undefined).map((o) => `Not offered: ${o.refused}`);
  return [`${offered.join('; ')} (docs/bots.md)`, ...refused].join('\n');
}

export class BalanceTab implements Tab {
  readonly id = 'balance';
  /** The settings asked for; the players' default is the pack's minimum. Bots the rules no longer seat stay asked for, and random ones play (`chosen`). */
  private settings: Settings | undefined;
  /** Runs by the scope they answer: pack, rules version and settings. */
  private runs = new Map<string, Run>();
  private charts: Chart[] = [];

  constructor(
    private readonly ctx: AppContext,
    /** The language names are shown in. */
    private readonly lang: () => string,
  ) {
    ctx.engine.onSimulated = (r) => {
      const run = [...this.runs.values()].find((x) => x.id === r.id);
      if (!run) return;
      run.response = r;
      if ((ctx.openTab === this.id && this.current() === run) || r.report || r.error) ctx.renderTabs();
    };
  }

  reset() {
    this.runs.clear();
    this.settings = undefined;
  }

  private scope(s: Settings): string {
    return JSON.stringify([this.ctx.packKey, this.ctx.version, s.games, s.players, s.bots]);
  }

  private chosen(): Settings | undefined {
    const summary = this.ctx.summary;
    if (!summary) return undefined;
    const s = this.settings ?? { games: 20, players: summary.players.min, bots: 'random' };
    // Settings carried over from rules with other player counts fall back to the pack's minimum,
    // and bots the rules no longer seat to random ones.
    const players = s.players >= summary.players.min && s.players <= summary.players.max ? s.players : summary.players.min;
    return { ...s, players, bots: botsPlaying(summary.bots, s.bots).kind };
  }

  /** The bots asked for and why random ones play instead, when an edit of the rules took what they need. */
  private replaced(): { wanted: AgentKind; why: string } | undefined {
    const summary = this.ctx.summary;
    const wanted = this.settings?.bots;
    if (!summary || !wanted) return undefined;
    const why = botsPlaying(summary.bots, wanted).refused;
    return why === undefined ? undefined : { wanted, why };
  }

  /** The run of the settings shown, on the rules compiled last. */
  private current(): Run | undefined {
    const s = this.chosen();
    return s && this.runs.get(this.scope(s));
  }

  label() {
    return ['Balance ', h('span', { class: 'count', 'data-testid': 'balance-count' }, this.progress())];
  }

  private progress(): string {
    const run = this.current();
    const r = run?.response;
    if (!run) return 'not run';
    if (!r) return '…';
    if (r.error) return 'stopped';
    return r.report ? `${r.games} games` : `${r.done}/${r.games}`;
  }

  render(into: HTMLElement) {
    for (const c of this.charts) c.destroy();
    this.charts = [];
    const summary = this.ctx.summary;
    const s = this.chosen();
    const players = summary ? Array.from({ length: summary.players.max - summary.players.min + 1 }, (_, i) => summary.players.min + i) : [];
    const change = (patch: Partial<Settings>) => {
      if (!s) return;
      // Onto the settings asked for, so that bots replaced for now are still asked for after another setting changes.
      this.settings = { ...s, bots: this.settings?.bots ?? s.bots, ...patch };
      this.ctx.renderTabs();
    };
    const games = h('select', { 'data-testid': 'balance-games', title: 'Games to play', onchange: () => change({ games: Number(games.value) }) }, [20, 50, 100, 200].map((n) => h('option', { value: n, selected: n === s?.games }, `${n} games`)));
    const seats = h('select', { 'data-testid': 'balance-players', title: 'Players', onchange: () => change({ players: Number(seats.value) }) }, players.map((n) => h('option', { value: n, selected: n === s?.players }, `${n} players`)));
    const offers = summary?.bots.filter((o) => o.refused === undefined) ?? [];
    const bots = h('select', { 'data-testid': 'balance-bots', title: summary ? botsTitle(summary.bots) : 'The bots the pack can seat, once it compiles without errors', onchange: () => change({ bots: bots.value as Bots }) }, offers.map((o) => h('option', { value: o.kind, selected: o.kind === s?.bots }, `${o.kind} bots`)));
    const start = () => {
      if (!s) return;
      this.runs.set(this.scope(s), { id: this.ctx.engine.simulate({ ...s, seed: 1 }), games: s.games });
      this.ctx.renderTabs();
    };
    const controls = h('div', { class: 'balance-controls' }, games, seats, bots, h('button', { class: 'small', 'data-testid': 'balance-run', disabled: !summary, onclick: start }, 'Run'));
    const run = this.current();
    const response = run?.response;
    const body: Array<HTMLElement | null> = [];
    const replaced = this.replaced();
    // Random bots are already the ones listed as picked, so picking them from the list changes nothing: the note has its own button.
    const giveUp = () => change({ bots: 'random' });
    if (replaced) body.push(h('div', { class: 'problem warning', 'data-testid': 'balance-bots-replaced' }, h('span', { class: 'body' }, `Random bots play instead: ${replaced.why}. The ${replaced.wanted} bots play again once the rules can seat them, unless other bots are picked meanwhile.`), h('button', { class: 'small', 'data-testid': 'balance-bots-random', onclick: giveUp }, 'Play random bots')));
    if (!summary) body.push(h('div', { class: 'empty' }, 'Bots play once the pack compiles without errors.'));
    else if (!run) body.push(h('div', { class: 'empty', 'data-testid': 'balance-empty' }, 'Not run on these rules with these settings: play many games by bots, to see how often each seat and each card wins.'));
    else if (response?.error) body.push(h('div', { class: 'problem error' }, h('span', { class: 'sev' }, '✕'), h('div', { class: 'body' }, `${response.error} (after ${response.done} games)`)));
    else if (!response?.report) body.push(h('div', { class: 'empty', 'data-testid': 'balance-progress' }, `Playing: ${response?.done ?? 0} of ${run.games} games…`));
    else body.push(...this.study(response.report, response.ms));
    clear(into, controls, ...body);
    // Charts are drawn once their canvases are in the page, so that they take its size.
    for (const canvas of into.querySelectorAll<HTMLCanvasElement>('canvas[data-chart]')) {
      const spec = this.specs.get(canvas.dataset.chart!);
      if (spec) this.charts.push(new Chart(canvas, spec as unknown as ChartConfiguration));
    }
  }

  /** The charts of the study shown, by id, for `render` to draw. */
  private specs = new Map<string, unknown>();

  private study(r: Study, ms: number): HTMLElement[] {
    const summary = this.ctx.summary!;
    const lang = this.lang();
    const card = (id: string) => summary.entities[id]?.name[lang] ?? summary.entities[id]?.name.en ?? id;
    const kind = (k: string) => summary.kinds[k]?.plural ?? k;
    const out: HTMLElement[] = [];
    const unfinished = r.games - r.finished;
    out.push(h('div', { class: 'balance-note', 'data-testid': 'balance-summary' }, `${r.finished} of ${r.games} games finished, ${r.length.choices.mean.toFixed(0)} choices a game (median ${r.length.choices.median}, 90th percentile ${r.length.choices.p90}), ${(ms / 1000).toFixed(1)} s`));
    if (unfinished) out.push(h('div', { class: 'balance-note' }, `${r.budgetEnded.length} ended by the evaluation budget, ${r.stuck.length} stuck`));
    for (const g of r.budgetEnded) out.push(h('div', { class: 'problem warning', 'data-testid': 'balance-budget' }, `seed ${g.seed} (${g.budget} budget): ${g.why}`));
    for (const g of r.stuck) out.push(h('div', { class: 'problem warning' }, `seed ${g.seed}: ${g.why}`));
    out.push(
      h(
        'div',
        { class: 'balance-note', 'data-testid': 'balance-band' },
        r.cooperative
          ? `One score for the table (a solo or cooperative game); mean score ${(r.seats[0]?.meanScore ?? 0).toFixed(2)}. Fair band ${r.band.low.toFixed(2)}–${r.band.high.toFixed(2)}.`
          : `Fair band: ${pct(r.band.low)}–${pct(r.band.high)} (an even ${pct(r.even)} ± ${(r.margin * 100).toFixed(0)} points).${r.firstPlayer ? ` First player: ${pct(r.firstPlayer.share)} [${pct(r.firstPlayer.low)}–${pct(r.firstPlayer.high)}].` : ''}`,
      ),
    );
    this.specs.clear();
    for (const spec of studyCharts(r, { card, kind })) {
      this.specs.set(spec.id, spec.config);
      out.push(h('div', { style: `position: relative; height: ${spec.height}px; margin: 8px 10px`, 'data-testid': 'balance-chart' }, h('canvas', { 'data-chart': spec.id, 'aria-label': spec.title })));
    }
    const value = (f: Figure) => (r.cooperative ? f.meanScore.toFixed(2) : pct(f.share));
    const where = (f: Figure) => `${r.cooperative ? `[${f.scoreLow.toFixed(2)}–${f.scoreHigh.toFixed(2)}]` : `[${pct(f.low)}–${pct(f.high)}]`} in ${f.n} game${f.n === 1 ? '' : 's'}`;
    const row = (f: Figure, name: string, attrs: Record<string, string>) =>
      h('div', { class: `balance-row${f.flag ? ' off' : ''}`, title: f.flag ? `${f.flag === 'strong' ? 'above' : 'below'} the fair band, with 95% confidence` : '', ...attrs }, h('span', { class: 'name' }, name), h('span', null, value(f)), h('span', { class: 'where' }, where(f)));
    if (!r.cooperative) out.push(h('div', { class: 'balance-row head' }, `Wins by seat (even: ${pct(r.even)})`), ...r.seats.map((x) => row(x, x.player, { 'data-testid': 'balance-seat' })));
    for (const k of r.kinds) {
      out.push(h('div', { class: 'balance-row head' }, `${r.cooperative ? 'Mean score' : 'Wins'} by ${kind(k.kind)} held at the end`));
      out.push(...k.cards.map((c) => row(c, card(c.card), { 'data-testid': 'balance-card', 'data-card': c.card, 'data-kind': c.kind })));
    }
    return out;
  }
}
