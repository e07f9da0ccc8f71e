/**
 * The game being played on the pack: its options and choices (saved with the pack), the state the
 * engine answered for them, stepping through its history, and the bots' moves. The bots' picks
 * come from the engine worker's agents (`runtime/agents.ts`), the same as `rulebook play --bots`,
 * so a seed plays the same game here as on the command line.
 *
 * The game kept to resume (with the pack, in the browser) is only ever one the engine has just
 * replayed to the end without a refusal: a move that fails, or old moves that new rules refuse,
 * leave the last game that replayed as the one a reload resumes.
 */
import type { Choice } from './engine-types.ts';
import type { AppContext } from './context.ts';
import type { GameRequest, PlayResponse } from './protocol.ts';
import { afterPaint } from './frames.ts';
import { emptyReplay, pageClock } from './trace.ts';
import { BOT_DELAYS, botSpeed } from './prefs.ts';
import { NotLoadable, type Seat, type Session } from './workspace.ts';

/** Past this many choices the bots pause, so a game that never ends does not run forever. */
const BOT_MOVE_LIMIT = 2000;

export class GameSession {
  session: Session | undefined;
  /** Number of choices shown when stepping through history; undefined when live. */
  cursor: number | undefined;
  viewAs: string | null = null;
  botsPaused = false;
  played: PlayResponse | undefined;
  /** The options of the next game, while none is being played. */
  setupDraft: Session | undefined;
  private playSeq = 0;
  /** The engine replayed every choice of the game as it is now: it may be kept to resume. */
  private verified = false;
  private botTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last replay's way from the runnable pack to the board on screen (trace.ts), for bench/playground.ts. */
  replayTrace = emptyReplay();
  /** When the last runnable pack reached the page, and its lowering's time in the worker. */
  packAt = 0;
  lowerMs = 0;
  /** The game changed: draw it again. */
  onChange: () => void = () => {};

  constructor(private readonly ctx: AppContext) {}

  /** The game saved with a pack just opened; answers about the previous pack's game are ignored. */
  open(packKey: string) {
    this.stopBots();
    this.playSeq++;
    this.played = undefined;
    this.session = this.ctx.ws.session(packKey);
    this.verified = false;
    this.cursor = undefined;
    this.viewAs = null;
  }

  defaultSession(): Session {
    const summary = this.ctx.summary;
    const min = summary?.players.min ?? 2;
    const max = summary?.players.max ?? min;
    const players = Math.min(max, Math.max(min, 3));
    return { players, seed: Math.floor(Math.random() * 1e6), seats: Array.from({ length: players }, (_, i) => (i === 0 ? 'human' : 'bot')), choices: [], madeBy: [] };
  }

  start(s: Session) {
    this.stopBots();
    this.session = { ...s, choices: [], madeBy: [] };
    this.cursor = undefined;
    this.viewAs = null;
    this.botsPaused = false;
    this.verified = false;
    void this.play();
  }

  end() {
    this.stopBots();
    this.setupDraft = this.session ? { ...this.session } : undefined;
    this.session = undefined;
    this.played = undefined;
    this.cursor = undefined;
    this.ctx.ws.setSession(this.ctx.packKey, undefined);
    this.onChange();
  }

  /** Keeps the game to resume; only a game that just replayed whole gets here. */
  private keep(s: Session) {
    try {
      this.ctx.ws.setSession(this.ctx.packKey, s);
    } catch (e) {
      if (!(e instanceof NotLoadable)) throw e;
      this.ctx.toast(`This game is not kept to resume: it could not be replayed (${e.message}).`, 'error');
    }
  }

  /** The game as the engine is to replay it: the choices up to the cursor, in the view asked. */
  request(): GameRequest | undefined {
    const s = this.session;
    if (!s) return undefined;
    return { players: s.players, seed: s.seed, choices: this.cursor === undefined ? s.choices.slice() : s.choices.slice(0, this.cursor), viewAs: this.viewAs };
  }

  /** Ask the engine for the state after the choices (up to the cursor), then let a bot move. */
  async play() {
    const asked = this.request();
    if (!asked || !this.ctx.summary) {
      this.onChange();
      return;
    }
    const seq = ++this.playSeq;
    const sent = performance.now();
    const r = await this.ctx.engine.play(asked);
    if (seq !== this.playSeq || r.error === 'superseded') return;
    this.take(r, asked, sent);
  }

  /**
   * New rules: the engine replayed the game as it was when their compile was asked (`asked`). That
   * answer is drawn if the game has not moved since; else the game as it is now is asked for.
   */
  newRules(r: PlayResponse | undefined, asked: GameRequest | undefined) {
    const now = this.request();
    if (!r || !asked || !now || !sameGame(asked, now)) return void this.play();
    ++this.playSeq;
    this.take(r, asked, this.packAt);
  }

  /** The engine's answer for the game asked: drawn, kept to resume when it is the whole game replayed, and a bot's move made. */
  private take(answer: PlayResponse, asked: GameRequest, sent: number) {
    const s = this.session!;
    const received = performance.now();
    // An answer that draws as the one on screen (new rules, same game) keeps what was drawn from it.
    const before = this.played;
    const r = answer.digest !== undefined && answer.digest === before?.digest ? { ...answer, state: before.state, view: before.view, legal: before.legal, stoppedAt: before.stoppedAt, bot: before.bot, standings: before.standings } : answer;
    this.played = r;
    if (asked.choices.length === s.choices.length) {
      this.verified = !r.error && !r.stoppedAt && r.state !== undefined;
      if (this.verified) this.keep({ ...s, seats: [...s.seats], choices: asked.choices.slice(), madeBy: s.madeBy.slice(0, asked.choices.length) });
    }
    this.onChange();
    const t = (this.replayTrace = { pack: this.packAt, sent, received, shown: performance.now(), painted: 0, workerMs: r.ms ?? 0, applied: r.applied, lowerMs: this.lowerMs, setupMs: r.parts?.setup ?? 0, choicesMs: r.parts?.choices ?? 0, kept: r.parts?.kept ?? 0, workerGot: r.clock ? pageClock(r.clock.got) : 0, workerSent: r.clock ? pageClock(r.clock.sent) : 0 });
    afterPaint((at) => (t.painted = at));
    this.maybeBotMove();
  }

  seatOf(player: string): Seat {
    const i = this.played?.state?.players.indexOf(player) ?? -1;
    return this.session?.seats[i] ?? 'human';
  }

  toMove(): string | undefined {
    const st = this.played?.state;
    return st?.prompt?.player ?? this.played?.legal[0]?.player ?? st?.current ?? undefined;
  }

  stopBots() {
    clearTimeout(this.botTimer);
    this.botTimer = undefined;
  }

  maybeBotMove() {
    this.stopBots();
    const r = this.played;
    const s = this.session;
    if (!r || !s || this.cursor !== undefined || this.botsPaused || r.stoppedAt || !r.state || r.state.over || !r.bot) return;
    if (this.seatOf(r.bot.player) !== 'bot') return;
    // An answer for fewer choices than made (one is on its way) would have the bot move twice.
    if (r.applied !== s.choices.length) return;
    // Stop a runaway game: a designer can resume.
    if (s.choices.length >= BOT_MOVE_LIMIT) {
      this.botsPaused = true;
      this.onChange();
      return;
    }
    const pick = r.bot;
    this.botTimer = setTimeout(() => this.choose(pick), BOT_DELAYS[botSpeed()] ?? 150);
  }

  resumeBots() {
    this.botsPaused = false;
    this.maybeBotMove();
    this.onChange();
  }

  choose(c: Pick<Choice, 'id' | 'player'>) {
    const s = this.session;
    if (!s) return;
    this.stopBots();
    if (this.cursor !== undefined) {
      // Choosing while looking back branches the game from there.
      s.choices = s.choices.slice(0, this.cursor);
      s.madeBy = s.madeBy.slice(0, this.cursor);
      this.cursor = undefined;
    }
    if (this.played?.stoppedAt) {
      // The rules changed under the old choices: the ones that no longer apply are dropped.
      s.choices = s.choices.slice(0, this.played.applied);
      s.madeBy = s.madeBy.slice(0, this.played.applied);
    }
    s.choices.push(c.id);
    s.madeBy.push(c.player);
    this.verified = false;
    void this.play();
  }

  undo() {
    const s = this.session;
    if (!s || !s.choices.length) return;
    this.stopBots();
    const end = this.cursor ?? (this.played?.stoppedAt ? this.played.applied : s.choices.length);
    let n = end;
    // Back to before the last human move, so the bots do not replay it at once.
    while (n > 0) {
      n--;
      const by = s.madeBy[n];
      if (by === undefined || this.seatOf(by) === 'human') break;
    }
    if (s.seats.every((x) => x === 'bot')) this.botsPaused = true;
    s.choices = s.choices.slice(0, n);
    s.madeBy = s.madeBy.slice(0, n);
    this.cursor = undefined;
    void this.play();
  }

  step(to: number | undefined) {
    const s = this.session;
    if (!s) return;
    this.stopBots();
    const max = this.played?.stoppedAt && this.cursor === undefined ? this.played.applied : s.choices.length;
    this.cursor = to === undefined || to >= s.choices.length ? undefined : Math.max(0, Math.min(max, to));
    void this.play();
  }

  discardDeadChoices() {
    const s = this.session;
    const r = this.played;
    if (!s || !r?.stoppedAt) return;
    s.choices = s.choices.slice(0, r.applied);
    s.madeBy = s.madeBy.slice(0, r.applied);
    void this.play();
  }

  /** A seat switched between the designer and a bot. */
  toggleSeat(i: number) {
    const s = this.session;
    if (!s) return;
    s.seats[i] = s.seats[i] === 'human' ? 'bot' : 'human';
    if (this.verified) this.keep(s);
    this.maybeBotMove();
    this.onChange();
  }

  setViewAs(player: string | null) {
    this.viewAs = player;
    void this.play();
  }
}

function sameGame(a: GameRequest, b: GameRequest): boolean {
  return a.players === b.players && a.seed === b.seed && a.viewAs === b.viewAs && a.choices.length === b.choices.length && a.choices.every((c, i) => c === b.choices[i]);
}
