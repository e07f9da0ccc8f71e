/**
 * The page's frames: what waits for the next one to be painted. A keystroke's frame shows its
 * diagnostics; what the designer is not looking at yet (other files' markers, problems below the
 * fold, the game pane's banner) follows in the frames after it.
 */

/**
 * Calls `then` with the instant the next frame has been painted: the frame starts after a
 * requestAnimationFrame callback, and a message posted from it is handled once the frame is done
 * (its raster and presentation follow on other threads: 8 ms later at the median in a trace of
 * bench/playground.ts on a loaded machine).
 */
export function afterPaint(then: (at: number) => void) {
  requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      then(performance.now());
    };
    ch.port2.postMessage(undefined);
  });
}
