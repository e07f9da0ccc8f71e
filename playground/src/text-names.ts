/**
 * Names for the texts the engine worker posts (a game as drawn, a pack's summary), for the page to
 * tell an answer that draws as the last one without comparing the two: a text the same as the last
 * one named keeps its name, any other gets a new one. Comparing the text with the last costs a
 * string comparison; hashing it cost a pass over its 75 kB (150 choices of Small World) in
 * JavaScript on the way of every replay.
 *
 * No two texts ever share a name, and no name is given twice, by this worker or another: a page
 * still holds the names of the worker it restarted. A text named again after another (A, B, A)
 * gets a new name, so the page draws it again rather than keep what it drew for the first.
 */

/** This context's time origin, which tells one worker from another that replaced it. */
const ORIGIN = performance.timeOrigin.toString(36);
let made = 0;

export class TextNames {
  private last: string | undefined;
  private name = '';

  of(text: string): string {
    if (text !== this.last) {
      this.last = text;
      this.name = `${ORIGIN}:${++made}`;
    }
    return this.name;
  }
}
