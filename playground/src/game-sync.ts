/**
 * The game's answers on their way from the engine worker to the page. An answer that draws as the
 * last one posted (its digest says so: new rules that leave the game as it was, the usual case
 * while a designer edits a card that is not in play) is posted without the game itself, which the
 * worker would clone in its task and the page again in its own, 70 kB for 150 choices of Small
 * World; the page's end puts back the game it received last.
 *
 * Both ends see every answer, in the order posted (messages to and from a worker keep their
 * order), and both keep the last answer that came whole, so the two never differ. A new worker has
 * posted nothing, and the page forgets what the old one had posted.
 */
import type { PlayResponse } from './protocol.ts';

/** What an answer draws: left out of one that draws as the last. */
const DRAWN = ['state', 'view', 'legal', 'stoppedAt', 'bot', 'standings'] as const;
type Drawn = Partial<Pick<PlayResponse, (typeof DRAWN)[number]>>;

/** The worker's end: the digest of the last answer it posted whole. */
export class PostedGames {
  private last: string | undefined;

  post(answer: PlayResponse): PlayResponse {
    if (answer.digest === undefined) return answer;
    if (answer.digest !== this.last) {
      this.last = answer.digest;
      return answer;
    }
    const out: PlayResponse = { ...answer, same: true };
    for (const k of DRAWN) delete out[k];
    return out;
  }
}

/** The page's end: the last answer that came whole, to complete those that draw as it. */
export class ReceivedGames {
  private last: { digest: string; drawn: Drawn } | undefined;

  /** A new worker has posted nothing. */
  forget() {
    this.last = undefined;
  }

  take(answer: PlayResponse): PlayResponse {
    if (answer.digest === undefined) return answer;
    if (!answer.same) {
      const drawn: Drawn = {};
      for (const k of DRAWN) if (k in answer) Object.assign(drawn, { [k]: answer[k] });
      this.last = { digest: answer.digest, drawn };
      return answer;
    }
    // Cannot happen while both ends keep to the protocol; said, rather than a game drawn from nothing.
    if (this.last?.digest !== answer.digest) return { ...answer, same: undefined, legal: [], error: 'the engine answered with a game the page was not sent' };
    return { ...answer, same: undefined, ...this.last.drawn };
  }
}
