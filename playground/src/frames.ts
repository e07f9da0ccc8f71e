/**
 * The page's frames: what waits for the next one to be painted. A keystroke's frame shows its
 * diagnostics; what the designer is not looking at yet (other files' markers, problems below the
 * fold, the game pane's banner) follows in the frames after it.
 */

/** While `drawInFrame` draws: who waits for the paint of the frame under way. */
let closing: Array<(at: number) => void> | undefined;

/**
 * Calls `then` with the instant what is drawn now has been painted: the end of the next frame, or
 * of the frame under way when called while `drawInFrame` draws. A frame starts after its
 * requestAnimationFrame callbacks, and a message posted from one is handled once the frame is done
 * (its raster and presentation follow on other threads: 8 ms later at the median in a trace of
 * bench/playground.ts on a loaded machine).
 */
export function afterPaint(then: (at: number) => void) {
  if (closing) {
    closing.push(then);
    return;
  }
  requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      then(performance.now());
    };
    ch.port2.postMessage(undefined);
  });
}

/**
 * Draws from a requestAnimationFrame callback: what `draw` changes is painted in this frame, so an
 * `afterPaint` of `draw`'s waits for this frame's end, not the next's.
 */
export function drawInFrame(draw: () => void) {
  const waiting: Array<(at: number) => void> = [];
  closing = waiting;
  try {
    draw();
  } finally {
    closing = undefined;
  }
  if (!waiting.length) return;
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    ch.port1.close();
    const at = performance.now();
    for (const then of waiting) then(at);
  };
  ch.port2.postMessage(undefined);
}
