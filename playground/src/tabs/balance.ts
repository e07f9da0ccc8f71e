/** The Balance tab: games by bots on the last good compile, with wins by seat and by the cards held at the end. */
import { h, clear } from '../dom.ts';
import type { AppContext } from '../context.ts';
import type { SimulateResponse } from '../protocol.ts';
import type { Tab } from './tab.ts';

export class BalanceTab implements Tab {
  readonly id = 'balance';
  /** The simulation asked for last, its progress, then its figures. */
  private balance: { id: number; games: number; players: number; bots: 'random' | 'greedy'; run?: SimulateResponse } | undefined;

  constructor(
    private readonly ctx: AppContext,
    /** The language names are shown in. */
    private readonly lang: () => string,
  ) {
    ctx.engine.onSimulated = (r) => {
      if (!this.balance || r.id !== this.balance.id) return;
      this.balance.run = r;
      if (ctx.openTab === this.id || r.report || r.error) ctx.renderTabs();
    };
  }

  label() {
    return ['Balance ', h('span', { class: 'count', 'data-testid': 'balance-count' }, this.progress())];
  }

  private progress(): string {
    const run = this.balance?.run;
    if (!this.balance) return 'not run';
    if (!run) return '…';
    if (run.error) return 'stopped';
    return run.report ? `${run.games} games` : `${run.done}/${run.games}`;
  }

  render(into: HTMLElement) {
    const summary = this.ctx.summary;
    const b = this.balance;
    const players = summary ? Array.from({ length: summary.players.max - summary.players.min + 1 }, (_, i) => summary!.players.min + i) : [];
    const games = h('select', { 'data-testid': 'balance-games', title: 'Games to play' }, [20, 50, 100, 200].map((n) => h('option', { value: n, selected: n === (b?.games ?? 20) }, `${n} games`)));
    const seats = h('select', { 'data-testid': 'balance-players', title: 'Players' }, players.map((n) => h('option', { value: n, selected: n === (b?.players ?? players[0]) }, `${n} players`)));
    const bots = h('select', { 'data-testid': 'balance-bots', title: 'random: a uniform pick; greedy: the best lead after playing the rest of its turn (slower)' }, ['random', 'greedy'].map((k) => h('option', { value: k, selected: k === (b?.bots ?? 'random') }, `${k} bots`)));
    const start = () => {
      const req = { games: Number(games.value), players: Number(seats.value), seed: 1, bots: bots.value as 'random' | 'greedy' };
      this.balance = { id: this.ctx.engine.simulate(req), games: req.games, players: req.players, bots: req.bots };
      this.ctx.renderTabs();
    };
    const controls = h('div', { class: 'balance-controls' }, games, seats, bots, h('button', { class: 'small', 'data-testid': 'balance-run', disabled: !summary, onclick: start }, 'Run'));
    const run = b?.run;
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const body: Array<HTMLElement | null> = [];
    if (!summary) body.push(h('div', { class: 'empty' }, 'Bots play once the pack compiles without errors.'));
    else if (!b) body.push(h('div', { class: 'empty' }, 'Play many games by bots on these rules, to see how often each seat and each card wins.'));
    else if (run?.error) body.push(h('div', { class: 'problem error' }, h('span', { class: 'sev' }, '✕'), h('div', { class: 'body' }, `${run.error} (after ${run.done} games)`)));
    else if (!run?.report) body.push(h('div', { class: 'empty', 'data-testid': 'balance-progress' }, `Playing: ${run?.done ?? 0} of ${b.games} games…`));
    else {
      const r = run.report;
      body.push(h('div', { class: 'balance-note', 'data-testid': 'balance-summary' }, `${r.finished} of ${r.games} games finished, ${r.meanSteps.toFixed(0)} choices a game, ${(run.ms / 1000).toFixed(1)} s`));
      for (const s of r.stuck) body.push(h('div', { class: 'problem warning' }, `seed ${s.seed}: ${s.why}`));
      if (r.cooperative) body.push(h('div', { class: 'empty' }, `One score for the table (a solo or cooperative game); mean score ${(r.seats[0]?.meanScore ?? 0).toFixed(2)}.`));
      else body.push(h('div', { class: 'balance-row head' }, `Wins by seat (even: ${pct(r.even)})`), ...r.seats.map((s) => h('div', { class: 'balance-row', 'data-testid': 'balance-seat' }, h('span', { class: 'name' }, s.player), h('span', null, pct(s.share)), h('span', { class: 'where' }, `[${pct(s.low)}–${pct(s.high)}] mean score ${s.meanScore.toFixed(1)}`))));
      body.push(h('div', { class: 'balance-row head' }, r.cooperative ? 'Mean score by card held at the end' : 'Wins of the players holding each card at the end'));
      for (const c of r.cards) {
        const off = !r.cooperative && (c.low > r.even || c.high < r.even);
        body.push(h('div', { class: `balance-row${off ? ' off' : ''}`, 'data-testid': 'balance-card', 'data-card': c.card, title: off ? 'outside an even game’s share, with 95% confidence' : '' }, h('span', { class: 'name' }, summary.entities[c.card]?.name[this.lang()] ?? c.card), h('span', null, r.cooperative ? c.meanScore.toFixed(2) : pct(c.share)), h('span', { class: 'where' }, `${r.cooperative ? '' : `[${pct(c.low)}–${pct(c.high)}] `}in ${c.n} game${c.n === 1 ? '' : 's'}`)));
      }
    }
    clear(into, controls, ...body);
  }
}
