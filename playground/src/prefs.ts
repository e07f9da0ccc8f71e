/** The designer's layout and play preferences, kept in this browser apart from the packs. */
const KEY = 'rulebook.playground.prefs';

export const BOT_DELAYS: Record<string, number> = { instant: 0, fast: 150, slow: 700 };

interface Prefs {
  botSpeed: string;
  /** The game pane's share of the window's width, in vw. */
  gameWidth?: number;
  /** The board given the whole window: the file list and the editor folded away while a game is on. */
  focusBoard?: boolean;
}

export const prefs: Prefs = (() => {
  try {
    return { botSpeed: 'fast', ...JSON.parse(localStorage.getItem(KEY) ?? '{}') };
  } catch {
    return { botSpeed: 'fast' };
  }
})();

export function savePrefs() {
  try {
    localStorage.setItem(KEY, JSON.stringify(prefs));
  } catch {
    /* preferences are a convenience */
  }
}

export function botSpeed(): string {
  return prefs.botSpeed in BOT_DELAYS ? prefs.botSpeed : 'fast';
}

export function setBotSpeed(v: string) {
  prefs.botSpeed = v;
  savePrefs();
}

export function setFocusBoard(on: boolean) {
  prefs.focusBoard = on;
  savePrefs();
}
