/**
 * The play pane: a new game's options, then the game on the last rules that compiled: the board,
 * the prompt and its choices, the players' fields, the log, and the history to step through.
 */
import { h, clear } from './dom.ts';
import { idsIn, planBoard, renderBoard, type BoardPlan } from './board.ts';
import { seatColour } from './board/look.ts';
import { renderPlayersPanel } from './players-panel.ts';
import { KeptList, type KeptItem } from './kept-list.ts';
import type { AppContext } from './context.ts';
import type { Choice, GameState, PackSummary } from './engine-types.ts';
import { prefs } from './prefs.ts';
import { PlayToolbar } from './play-toolbar.ts';
import type { GameSession } from './session.ts';
import type { Seat, Session } from './workspace.ts';

const LOG_LIMIT = 250;

export class PlayPane {
  readonly el = h('section', { class: 'game', 'data-testid': 'game' });
  /** Language of names and texts. */
  lang = 'en';
  private boardZoom: { k: number; cx: number; cy: number } | undefined;
  private boardAspect = 1.7;
  /**
   * Whose view the game is shown in: `turn` is the one human seat, or the human to move when there
   * are several (a table passing the game around; kept while bots move), or the first seat when
   * bots play every seat; `all` shows everything; else a player.
   */
  private viewMode: 'turn' | 'all' | string = 'turn';
  private readonly toolbar: PlayToolbar;
  /**
   * The board, prompt, players and log last drawn, with what they were drawn from: a redraw for
   * anything else (a compile's errors, a banner) keeps them, so it costs no more than the banner.
   */
  private body: { from: unknown[]; el: HTMLElement; board: { from: unknown[]; drawn: string } } | undefined;
  /** The banners above the board (replay stopped, looking back, errors, bots paused), and their markup last drawn. */
  private readonly banners = h('div', { class: 'banners' });
  private bannersSaid = '';
  /**
   * Beside the board, the prompt, the players and the log: one element for the pane's life, whose
   * panels are each kept while they draw the same and whose log keeps the entries it shows again
   * (kept-list.ts). New rules that change a few figures of a long game restyle and lay out those
   * figures, not the hundreds of nodes of the side.
   */
  private readonly side = {
    el: h('div', { class: 'side' }),
    prompt: { said: '', el: h('div') as HTMLElement },
    players: { said: '', el: h('div') as HTMLElement },
    log: new KeptList(h('ol', { class: 'log', 'data-testid': 'log' })),
  };

  constructor(
    private readonly ctx: AppContext,
    private readonly game: GameSession,
  ) {
    this.toolbar = new PlayToolbar(game, {
      view: (mode) => {
        this.viewMode = mode;
        if (this.game.session) this.syncView(this.game.session);
      },
      language: (lang) => {
        this.lang = lang;
        this.render();
      },
      redraw: () => this.redraw(),
    });
    // The board is arranged for the space it gets: a resized window has it drawn again.
    addEventListener('resize', () => {
      if (this.game.session) this.redraw();
    });
  }

  /** Draw everything again, the board for the space it now has. */
  private redraw() {
    this.body = undefined;
    this.render();
  }

  render() {
    const g = this.el;
    // The workbench folds the editor away or gives the game more width by these (style.css). They
    // are set on it, not read by a `:has()` rule there: with one, any node added anywhere under it
    // (a badge, a problem) had Chromium restyle the whole workbench, Monaco and the board included.
    const playing = !!this.ctx.summary && !!this.game.session;
    for (const el of [g, g.parentElement]) {
      el?.classList.toggle('playing', playing);
      el?.classList.toggle('focus', playing && !!prefs.focusBoard);
    }
    if (!this.ctx.summary || !this.game.session) this.body = undefined;
    if (!this.ctx.summary) {
      const r = this.ctx.lastCompile;
      clear(
        g,
        h('div', { class: 'game-empty', 'data-testid': 'game-empty' },
          h('h2', null, 'Play'),
          !r
            ? h('p', null, 'Compiling the pack…')
            : r.engineProblem
              ? h('p', null, `The game cannot start: ${r.engineProblem}.`)
              : h('p', null, 'The game starts once the pack compiles without errors. Fix the problems listed under the editor.'),
        ),
      );
      return;
    }
    if (!this.game.session) {
      this.renderSetup(g, this.ctx.summary);
      return;
    }
    this.renderPlay(g, this.ctx.summary, this.game.session);
  }

  private renderSetup(g: HTMLElement, summary: PackSummary) {
    const draft = (this.game.setupDraft ??= this.game.defaultSession());
    const { min, max } = summary.players;
    draft.players = Math.min(max, Math.max(min, draft.players));
    draft.seats = Array.from({ length: draft.players }, (_, i) => draft.seats[i] ?? 'bot');
    const seats = h('div', { class: 'seats' });
    const renderSeats = () =>
      clear(
        seats,
        draft.seats.map((seat, i) =>
          h('label', { class: 'seat' },
            h('span', { class: 'dot', style: `background:${seatColour(summary, i)}` }),
            `Player ${i + 1}`,
            seatSelect(seat, (v) => (draft.seats[i] = v), `seat-${i}`),
          ),
        ),
      );
    renderSeats();
    const count = h('select', { 'data-testid': 'player-count' }, Array.from({ length: max - min + 1 }, (_, i) => min + i).map((n) => h('option', { value: n, selected: n === draft.players }, `${n} players`)));
    count.addEventListener('change', () => {
      draft.players = Number(count.value);
      draft.seats = Array.from({ length: draft.players }, (_, i) => draft.seats[i] ?? 'bot');
      renderSeats();
    });
    const seed = h('input', { type: 'number', value: draft.seed, min: 0, 'data-testid': 'seed', class: 'seed' });
    seed.addEventListener('input', () => (draft.seed = Math.max(0, Math.floor(Number(seed.value) || 0))));
    clear(
      g,
      h('div', { class: 'setup', 'data-testid': 'game-setup' },
        h('h2', null, `New game of ${summary.id}`),
        h('div', { class: 'row' },
          h('label', null, 'Players ', count),
          h('label', null, 'Seed ', seed),
          h('button', { class: 'small', title: 'Another seed', 'data-testid': 'random-seed', onclick: () => { draft.seed = Math.floor(Math.random() * 1e6); seed.value = String(draft.seed); } }, 'Random'),
        ),
        seats,
        h('button', { class: 'primary big', 'data-testid': 'start-game', onclick: () => this.game.start(draft) }, 'Start game'),
        h('p', { class: 'note' }, 'Bots pick among the legal choices with the seed, so a game replays the same. Edit the rules while playing: the moves replay under the new rules.'),
      ),
    );
  }

  private renderPlay(g: HTMLElement, summary: PackSummary, s: Session) {
    const r = this.game.played;
    const state = r?.view ?? r?.state;
    const full = r?.state;
    const live = this.game.cursor === undefined;
    const shownSteps = r ? r.applied : 0;
    const total = s.choices.length;
    const toMove = this.game.toMove();
    const humanToMove = !!toMove && this.game.seatOf(toMove) === 'human';
    const canChoose = !!r && !r.error && (!this.game.viewAs || this.game.viewAs === toMove);

    if (this.syncView(s)) return;
    this.toolbar.update({ summary, session: s, shown: shownSteps, total, live, players: full?.players ?? [], viewMode: this.viewMode, lang: this.lang });

    const banners: HTMLElement[] = [];
    if (r?.stoppedAt && live) {
      banners.push(
        h('div', { class: 'banner warn', 'data-testid': 'replay-stopped' },
          h('span', { class: 'banner-text' },
            h('strong', null, `Under the new rules, move ${r.stoppedAt.step + 1} of ${total} (\`${s.choices[r.stoppedAt.step] ?? '?'}\`) is refused: `),
            `${r.stoppedAt.reason}. The game shows the state before it; the ${total - r.applied} move${total - r.applied > 1 ? 's' : ''} from there on ${total - r.applied > 1 ? 'are' : 'is'} kept in case you edit the rules back.`,
          ),
          h('button', { class: 'small', onclick: () => this.game.discardDeadChoices() }, 'Drop them and play on'),
        ),
      );
    }
    if (!live) banners.push(h('div', { class: 'banner info', 'data-testid': 'history-banner' }, h('span', { class: 'banner-line', title: 'Choosing here starts a new line of play from this point.' }, `Looking back at move ${this.game.cursor} of ${total}; choosing here starts a new line of play.`), h('button', { class: 'small', onclick: () => this.game.step(undefined) }, 'Back to the present')));
    if (r?.error) banners.push(h('div', { class: 'banner bad', 'data-testid': 'game-error' }, r.error));
    if (this.ctx.diagnostics.some((d) => d.severity === 'error')) banners.push(h('div', { class: 'banner muted' }, 'The pack has errors; the game runs on the last rules that compiled.'));
    if (this.game.botsPaused) banners.push(h('div', { class: 'banner info' }, 'Bots are paused.', h('button', { class: 'small', onclick: () => this.game.resumeBots() }, 'Resume bots')));

    const from = [state, r?.legal, r?.stoppedAt, r?.standings, r?.error, r?.applied, summary, this.lang, this.game.viewAs, this.game.cursor, canChoose, humanToMove, s.seats.join()];
    const kept = this.body && this.body.from.every((x, i) => x === from[i]) ? this.body.el : undefined;
    let body = kept;
    if (!body) {
      // A new answer that draws the board as it is (new rules that changed a player's coins, or the
      // log) keeps the board: only the side is drawn again, and the board is neither laid out nor
      // painted anew. What the board draws: each node's look and the choices it makes (planBoard), worked out once for both.
      const legal = canChoose ? r!.legal : [];
      const plan = state && planBoard({ summary, state, lang: this.lang, choices: legal, clickable: humanToMove && !r?.stoppedAt });
      const board = { from: [summary, this.lang, this.boardAspect], drawn: plan?.drawn ?? '' };
      const old = this.body;
      if (old && state && old.board.drawn === board.drawn && old.board.from.every((x, i) => x === board.from[i])) {
        this.renderSide(summary, s, state, toMove, legal, humanToMove);
        body = old.el;
      } else body = this.renderBody(summary, s, state, plan, toMove, canChoose, humanToMove);
      this.body = { from, el: body, board };
    }
    // The toolbar, the banners and the body each stay in place while they draw the same: a subtree
    // taken out and put back has its style and layout computed anew, the board's and the log's too.
    const said = banners.map((b) => b.outerHTML).join('');
    if (g.firstChild !== this.toolbar.el || g.children[1] !== this.banners) {
      this.bannersSaid = said;
      clear(this.banners, banners);
      clear(g, this.toolbar.el, this.banners, body);
      return;
    }
    if (said !== this.bannersSaid) {
      this.bannersSaid = said;
      clear(this.banners, banners);
    }
    if (g.children[2] !== body) g.children[2].replaceWith(body);
  }

  /** The board `plan` (planBoard of `state`) and the side; the board is drawn again from the same plan when its space changes shape. */
  private renderBody(summary: PackSummary, s: Session, state: GameState | undefined, plan: BoardPlan | undefined, toMove: string | undefined, canChoose: boolean, humanToMove: boolean): HTMLElement {
    const r = this.game.played;
    const boardWrap = h('div', { class: 'board-wrap' });
    const legal = canChoose ? r!.legal : [];
    const drawBoard = (aspect: number) => {
      if (!plan) return void clear(boardWrap, h('div', { class: 'no-board' }, r?.error ? 'No game state.' : 'Starting…'));
      const svg = renderBoard({
        summary,
        lang: this.lang,
        aspect,
        zoom: this.boardZoom,
        onZoom: (z) => (this.boardZoom = z),
        onPick: (_entity, choices, at) => (choices.length === 1 ? this.game.choose(choices[0]) : this.pickMenu(choices, at)),
      }, plan);
      clear(
        boardWrap,
        svg ?? h('div', { class: 'no-board' }, 'No kind of this pack has a graph, so there is no board to draw.'),
        svg ? h('button', { class: 'small board-reset', 'data-testid': 'board-reset', title: 'The whole board (or double-click it)', onclick: () => { this.boardZoom = undefined; drawBoard(this.boardAspect); } }, 'Reset view') : null,
      );
    };
    // Several boards are arranged for the space they get: drawn for the last known shape, then
    // again if the space turns out to be another shape (a banner came or went).
    drawBoard(this.boardAspect);
    requestAnimationFrame(() => {
      if (!boardWrap.isConnected || boardWrap.clientHeight < 20) return;
      const aspect = boardWrap.clientWidth / boardWrap.clientHeight;
      if (Math.abs(aspect - this.boardAspect) / this.boardAspect > 0.08) {
        this.boardAspect = aspect;
        drawBoard(aspect);
      }
    });

    const body = h('div', { class: 'game-body' }, boardWrap, this.renderSide(summary, s, state, toMove, legal, humanToMove));
    // The side moved into a new body: taken out of the page, its log lost where it was scrolled to.
    this.scrollLog();
    return body;
  }

  /** The prompt, the players and the log, beside the board: the body's last child, drawn anew where it changed. */
  private renderSide(summary: PackSummary, s: Session, state: GameState | undefined, toMove: string | undefined, legal: Choice[], humanToMove: boolean): HTMLElement {
    const side = this.side;
    if (!side.el.firstChild) side.el.append(side.prompt.el, side.players.el, h('div', { class: 'panel log-panel' }, h('div', { class: 'panel-head' }, 'Log'), side.log.el));
    // A panel's markup is what it draws; the prompt's buttons act on their choices too.
    const prompt = this.renderPrompt(state, toMove, legal, humanToMove);
    keep(side.prompt, prompt, prompt.outerHTML + JSON.stringify(legal.map((c) => [c.id, c.player, c.args])));
    const players = this.renderPlayers(summary, state, s);
    keep(side.players, players, players.outerHTML);
    this.renderLog(state);
    return side.el;
  }

  /** Asks for the view the mode wants; true when a new answer is on its way (and will be drawn). */
  private syncView(s: Session): boolean {
    const players = this.game.played?.state?.players ?? [];
    const humans = players.filter((_, i) => s.seats[i] === 'human');
    const toMove = this.game.toMove();
    const turn = humans.length === 1 ? humans[0] : toMove && humans.includes(toMove) ? toMove : (this.game.viewAs ?? humans[0] ?? players[0]);
    const wanted = this.viewMode === 'all' ? null : this.viewMode === 'turn' ? turn : this.viewMode;
    if (!players.length || wanted === this.game.viewAs) return false;
    this.game.setViewAs(wanted);
    return true;
  }

  private renderPrompt(state: GameState | undefined, toMove: string | undefined, legal: Choice[], humanToMove: boolean): HTMLElement {
    const r = this.game.played;
    const idx = state && toMove ? state.players.indexOf(toMove) : -1;
    const who = idx >= 0 ? h('span', { class: 'who' }, h('span', { class: 'dot', style: `background:${seatColour(this.ctx.summary, idx)}` }), `P${idx + 1}`) : null;
    let head: (HTMLElement | string | null)[];
    if (!state) head = ['…'];
    else if (state.over) {
      const rows = r?.standings ?? [];
      const best = rows[0];
      head = [
        h('strong', { 'data-testid': 'game-over' }, 'Game over'),
        rows.length
          ? h('ol', { class: 'standings', 'data-testid': 'standings' }, rows.map((row) => {
              const i = state.players.indexOf(row.player);
              return h('li', { class: best && row.score === best.score && row.tiebreak === best.tiebreak ? 'winner' : '' },
                h('span', { class: 'dot', style: `background:${seatColour(this.ctx.summary, i)}` }), `P${i + 1} `, h('strong', null, row.score), row.tiebreak ? h('span', { class: 'tiebreak' }, ` (tiebreak ${row.tiebreak})`) : null);
            }))
          : null,
      ];
    }
    else if (r?.stoppedAt && this.game.cursor === undefined) head = ['Replay stopped; drop the later moves to play on.'];
    else if (!legal.length && this.game.viewAs && this.game.viewAs !== toMove) head = [who, ' to move (switch the view to see their choices)'];
    else head = [who, humanToMove ? ' to move' : ' (bot) is thinking…', state.prompt?.text ? h('div', { class: 'prompt-text' }, state.prompt.text) : null];
    const buttons = legal.map((c) =>
      h('button', {
        class: 'choice',
        'data-testid': 'choice',
        'data-choice': c.id,
        disabled: !humanToMove || !!r?.stoppedAt,
        title: c.id,
        onclick: () => this.game.choose(c),
        // Pointing at a choice shows on the board what it names.
        onmouseenter: () => highlight(c, true),
        onmouseleave: () => highlight(c, false),
      }, choiceLabel(c, state?.prompt?.text)),
    );
    return h('div', { class: 'panel prompt', 'data-testid': 'prompt' }, h('div', { class: 'panel-head' }, ...head), h('div', { class: 'choices', 'data-testid': 'choices' }, buttons));
  }

  private renderPlayers(summary: PackSummary, state: GameState | undefined, s: Session): HTMLElement {
    if (!state) return h('div', { class: 'panel players' });
    return renderPlayersPanel({ summary, state, lang: this.lang, viewAs: this.game.viewAs, toMove: this.game.toMove(), seats: s.seats, onToggleSeat: (i) => this.game.toggleSeat(i) });
  }

  private renderLog(state: GameState | undefined) {
    // The latest entries: a whole game's log would make every redraw slow.
    const all = state?.log ?? [];
    const shown = all.slice(-LOG_LIMIT);
    const items: KeptItem[] = [];
    const earlier = all.length - shown.length;
    if (earlier > 0) items.push({ key: `earlier ${earlier}`, make: () => h('li', { class: 'entry setup' }, `… ${earlier} earlier entries (step back through the history to see them)`) });
    for (const e of shown) {
      const pi = e.player ? (state?.players.indexOf(e.player) ?? -1) : -1;
      const colour = pi >= 0 ? seatColour(this.ctx.summary, pi) : '';
      items.push({
        key: JSON.stringify([e.step, pi, colour, e.text, e.rule ?? null]),
        make: () => {
          const rule = e.rule ? /^(.+?):(\d+)/.exec(e.rule) : null;
          return h('li', { class: `entry${e.step < 0 ? ' setup' : ''}`, 'data-testid': 'log-entry' },
            h('span', { class: 'step' }, e.step < 0 ? 'setup' : `#${e.step + 1}`),
            pi >= 0 ? h('span', { class: 'dot', style: `background:${colour}`, title: `P${pi + 1}` }) : null,
            h('span', { class: 'text' }, e.text),
            e.rule
              ? h('button', {
                  class: 'rule',
                  title: `Caused by ${e.rule}; click to open`,
                  'data-testid': 'log-rule',
                  onclick: () => rule && this.ctx.editor.revealLine(rule[1], Number(rule[2])),
                }, e.rule.replace(/^.*\//, ''))
              : null,
          );
        },
      });
    }
    if (this.side.log.update(items)) this.scrollLog();
  }

  /** The log's latest entries in sight, once the frame lays them out. */
  private scrollLog() {
    const list = this.side.log.el;
    requestAnimationFrame(() => (list.scrollTop = list.scrollHeight));
  }

  private pickMenu(choices: Choice[], at: { x: number; y: number }) {
    document.querySelector('.pick-menu')?.remove();
    const menu = h('div', { class: 'pick-menu', 'data-testid': 'pick-menu', style: `left:${Math.min(at.x, window.innerWidth - 220)}px;top:${Math.min(at.y, window.innerHeight - 40 * choices.length - 10)}px` },
      choices.map((c) => h('button', { class: 'choice', 'data-choice': c.id, onclick: () => { menu.remove(); this.game.choose(c); } }, choiceLabel(c, this.game.played?.state?.prompt?.text))),
    );
    document.body.append(menu);
    const close = (e: Event) => {
      if (!menu.contains(e.target as Node)) {
        menu.remove();
        document.removeEventListener('pointerdown', close, true);
      }
    };
    setTimeout(() => document.addEventListener('pointerdown', close, true));
  }
}

/** A panel of the side kept while it draws the same (`said`), else replaced by the one just drawn. */
function keep(panel: { said: string; el: HTMLElement }, drawn: HTMLElement, said: string) {
  if (said === panel.said) return;
  panel.el.replaceWith(drawn);
  panel.el = drawn;
  panel.said = said;
}

function highlight(c: Choice, on: boolean) {
  for (const id of c.args.flatMap(idsIn)) {
    for (const el of document.querySelectorAll(`[data-testid=board] [data-entity="${CSS.escape(id)}"]`)) el.classList.toggle('hl', on);
  }
}

/** A choice's label without the prompt's question, which the panel already shows above the choices. */
function choiceLabel(c: Choice, prompt: string | undefined): string {
  const label = c.label || c.id;
  return prompt && label.startsWith(`${prompt}: `) ? label.slice(prompt.length + 2) : label;
}

function seatSelect(value: Seat, onChange: (v: Seat) => void, testid: string): HTMLSelectElement {
  const sel = h('select', { class: 'seat-select', 'data-testid': testid }, h('option', { value: 'human', selected: value === 'human' }, 'Human'), h('option', { value: 'bot', selected: value === 'bot' }, 'Bot'));
  sel.addEventListener('change', () => onChange(sel.value as Seat));
  return sel;
}

