/**
 * The players panel: one card per player with what a player would see on the table first (the
 * fields the pack's presentation `show`s, in its order), then the rest, never the rules' `scratch`
 * fields; a value naming an entity the pack presents with `show` fields (a player's faction) lists
 * those too. Hidden fields read "hidden" in another player's view. Below, the game's own fields.
 * Cards wrap to the panel's width, so no column is ever cut.
 */
import { h } from './dom.ts';
import { Looks } from './board/look.ts';
import type { GameState, PackSummary, Value } from './engine-types.ts';
import type { Seat } from './workspace.ts';

/** Past this many entries a list shows its length: a deck's order is not for the table to read. */
const LONG_LIST = 6;

export interface PlayersPanelInput {
  summary: PackSummary;
  state: GameState;
  lang: string;
  /** Whose view is shown; null for everything. */
  viewAs: string | null;
  toMove: string | undefined;
  seats: Seat[];
  onToggleSeat(i: number): void;
}

export function renderPlayersPanel(input: PlayersPanelInput): HTMLElement {
  const { summary, state } = input;
  const looks = new Looks(summary, state, input.lang);
  const playerKind = Object.hasOwn(summary.kinds, 'player') ? summary.kinds.player : undefined;
  const declared = playerKind ? Object.keys(playerKind.state) : [...new Set(state.players.flatMap((p) => Object.keys(state.e[p] ?? {})))];
  const fields = looks.fields('player', declared);

  const value = (v: Value | undefined): string => {
    if (Array.isArray(v) && v.length > LONG_LIST) return `${v.length} items`;
    return looks.show(v);
  };
  /** The presented fields of the entity a value names, e.g. a faction's VP and Korra. */
  const more = (v: Value | undefined): HTMLElement | null => {
    if (typeof v !== 'string') return null;
    const look = looks.look(looks.kindOf(v));
    if (!look?.show.length || looks.kindOf(v) === 'player') return null;
    return h('span', { class: 'more' }, look.show.map((f) => h('span', { class: 'kv' }, h('span', { class: 'k' }, f), ' ', value(looks.value(v, f)))));
  };

  const cards = state.players.map((p, i) => {
    const rows = fields.map((f) => {
      const hidden = !!playerKind?.state[f]?.hidden && input.viewAs !== null && input.viewAs !== p;
      const v = state.e[p]?.[f];
      return h('div', { class: `pf${hidden ? ' hidden-field' : ''}`, title: hidden ? 'hidden from this view' : f },
        h('span', { class: 'k' }, f),
        h('span', { class: 'v' }, h('span', { 'data-testid': `field-${p}-${f}` }, hidden ? 'hidden' : value(v)), hidden ? null : more(v)),
      );
    });
    return h('div', { class: `player-card${p === input.toMove ? ' active' : ''}`, 'data-testid': `player-${i}` },
      h('div', { class: 'player-head' },
        h('span', { class: 'dot', style: `background:${looks.seatColour(i)}` }),
        h('strong', null, `P${i + 1}`),
        p === input.toMove ? h('span', { class: 'to-move' }, 'to move') : null,
        h('button', {
          class: `seat-toggle ${input.seats[i] ?? 'bot'}`,
          'data-testid': `seat-${i}`,
          title: 'Who plays this seat: click to switch between you and a bot',
          onclick: () => input.onToggleSeat(i),
        }, input.seats[i] === 'human' ? 'you' : 'bot'),
      ),
      rows,
    );
  });
  const game = Object.hasOwn(state.e, 'game') ? state.e.game : undefined;
  const gameFields = game ? looks.fields('game', Object.keys(game)) : [];
  return h('div', { class: 'panel players', 'data-testid': 'players' },
    h('div', { class: 'player-cards' }, cards),
    gameFields.length
      ? h('div', { class: 'game-fields', 'data-testid': 'game-fields' }, gameFields.map((k) => h('span', { class: 'kv', title: k }, h('span', { class: 'k' }, k), ' ', value(game![k]))))
      : null,
  );
}
