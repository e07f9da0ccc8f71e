/**
 * The play pane's toolbar: the game's seed, restart, the history's steps, bot speed, view and
 * language. Its elements are made once and updated in place after every move: while bots play
 * fast, a toolbar drawn anew would take a click's mouse-down on one button and its mouse-up on the
 * button's replacement (and lose the click), and would close a menu the user has open.
 */
import { h } from './dom.ts';
import type { PackSummary } from './engine-types.ts';
import { BOT_DELAYS, botSpeed, prefs, setBotSpeed, setFocusBoard } from './prefs.ts';
import type { GameSession } from './session.ts';
import type { Session } from './workspace.ts';

/** What the toolbar shows: the game and where the history stands. */
export interface ToolbarView {
  summary: PackSummary;
  session: Session;
  /** Moves applied in the state shown. */
  shown: number;
  /** Moves made in the game. */
  total: number;
  /** Whether the present is shown (not a step back in the history). */
  live: boolean;
  players: string[];
  viewMode: string;
  lang: string;
}

/** What the pane does on the toolbar's choices that are the pane's, not the game's. */
export interface ToolbarActions {
  view(mode: string): void;
  language(lang: string): void;
  redraw(): void;
}

export class PlayToolbar {
  private readonly gameId = h('span', { class: 'game-id' });
  private readonly undoButton = h('button', { class: 'small', 'data-testid': 'undo', title: 'Undo to before your last move', onclick: () => this.game.undo() }, '↶ Undo');
  private readonly toStart = h('button', { class: 'icon', title: 'To the start', onclick: () => this.game.step(0) }, '«');
  private readonly back = h('button', { class: 'icon', 'data-testid': 'step-back', title: 'Step back', onclick: () => this.game.step(this.shown().shown - 1) }, '◀');
  private readonly step = h('span', { class: 'step', 'data-testid': 'step' });
  private readonly forward = h('button', { class: 'icon', 'data-testid': 'step-forward', title: 'Step forward', onclick: () => this.game.step((this.game.cursor ?? this.shown().total) + 1) }, '▶');
  private readonly toLive = h('button', { class: 'icon', 'data-testid': 'live', title: 'Back to the present', onclick: () => this.game.step(undefined) }, '»');
  private readonly speed = h('select', { 'data-testid': 'bot-speed', title: 'Bot speed' }, Object.keys(BOT_DELAYS).map((k) => h('option', { value: k }, `Bots: ${k}`)));
  private readonly viewSelect = h('select', { 'data-testid': 'view-as', title: 'Whose view of the game: hidden information is removed' });
  private readonly langSelect = h('select', { 'data-testid': 'language', title: 'Language of names and texts' });
  private readonly focusToggle = h('button', { 'data-testid': 'focus-board' });
  /** The options' lists last put in the menus: they are made again only when these change. */
  private viewOptions = '';
  private langOptions = '';
  private view: ToolbarView | undefined;

  readonly el = h('div', { class: 'game-toolbar' },
    h('div', { class: 'group' },
      this.gameId,
      h('button', { class: 'small', 'data-testid': 'restart', title: 'Same players and seed, no moves', onclick: () => this.game.start(this.shown().session) }, 'Restart'),
      h('button', { class: 'small ghost', 'data-testid': 'new-game', title: 'Choose players and seed', onclick: () => this.game.end() }, 'New game'),
    ),
    h('div', { class: 'group history', 'data-testid': 'history' }, this.undoButton, this.toStart, this.back, this.step, this.forward, this.toLive),
    h('div', { class: 'group' }, this.speed, this.viewSelect, this.langSelect),
    this.focusToggle,
  );

  constructor(
    private readonly game: GameSession,
    actions: ToolbarActions,
  ) {
    this.speed.addEventListener('change', () => {
      setBotSpeed(this.speed.value);
      this.game.maybeBotMove();
    });
    this.viewSelect.addEventListener('change', () => actions.view(this.viewSelect.value));
    this.langSelect.addEventListener('change', () => actions.language(this.langSelect.value));
    this.focusToggle.addEventListener('click', () => {
      setFocusBoard(!prefs.focusBoard);
      actions.redraw();
    });
  }

  /** The view last shown: a button acts on what the user saw. */
  private shown(): ToolbarView {
    if (!this.view) throw new Error('the play toolbar is used before it shows a game');
    return this.view;
  }

  update(v: ToolbarView) {
    this.view = v;
    const s = v.session;
    this.gameId.title = `seed ${s.seed}`;
    this.gameId.textContent = `${s.players} players · seed ${s.seed}`;
    this.undoButton.disabled = !v.total;
    this.toStart.disabled = v.shown === 0;
    this.back.disabled = v.shown === 0;
    this.step.textContent = `${v.shown}/${v.total}`;
    this.forward.disabled = v.live;
    this.toLive.disabled = v.live;
    this.speed.value = botSpeed();

    const views = JSON.stringify(v.players);
    if (views !== this.viewOptions) {
      this.viewOptions = views;
      this.viewSelect.replaceChildren(
        h('option', { value: 'turn' }, 'View: current player'),
        h('option', { value: 'all' }, 'View: everything'),
        ...v.players.map((p, i) => h('option', { value: p }, `View as P${i + 1}`)),
      );
    }
    select(this.viewSelect, v.viewMode);

    const languages = v.summary.languages;
    if (JSON.stringify(languages) !== this.langOptions) {
      this.langOptions = JSON.stringify(languages);
      this.langSelect.replaceChildren(...languages.map((l) => h('option', { value: l }, l.toUpperCase())));
    }
    this.langSelect.hidden = languages.length <= 1;
    select(this.langSelect, v.lang);

    const focus = !!prefs.focusBoard;
    this.focusToggle.className = `small focus-toggle${focus ? ' on' : ''}`;
    this.focusToggle.setAttribute('aria-pressed', focus ? 'true' : 'false');
    this.focusToggle.title = focus ? 'Show the files and the editor again' : 'Give the board the whole window (the editor folds away)';
    this.focusToggle.textContent = focus ? '⇤ Editor' : '⤢ Focus board';
  }
}

/** Shows `value` in the menu, or its first option when it has none of that value (as a menu just made does). */
function select(menu: HTMLSelectElement, value: string) {
  menu.value = value;
  if (menu.selectedIndex < 0) menu.selectedIndex = 0;
}
