/**
 * A compile's answer where the page can read it without waiting for a message: memory the worker
 * and the page share (a SharedArrayBuffer, which the browser offers only to a cross-origin isolated
 * page: vite.config.ts sends the headers that make it one).
 *
 * Why: a message from the worker is a task of the page's, and the browser runs the frame of the
 * keystroke that asked for the compile first, so its diagnostics were painted a frame later (16.7 ms
 * at 60 Hz, and that frame's work). The page looks here at the start of the keystroke's frame
 * (requestAnimationFrame), before its style, layout and paint: when the check is done by then, as it
 * mostly is (a few milliseconds, while the page handles the key), the diagnostics are in that frame.
 * The message still comes, and is the answer whenever the mailbox had none yet.
 *
 * The worker writes only the answer of the compile the page waits for, and the page asks for the
 * next compile only once it has that answer, so a write never meets a read; a read checks it anyway
 * (the answer's id before and after) and takes nothing from a write under way.
 */

/** Room for a compile's diagnostics as JSON text; an answer that does not fit goes by message alone. */
const BYTES = 1 << 20;
/** The header's cells: the id of the answer held (0 none, -1 one being written), and its length in bytes. */
const ID = 0;
const LENGTH = 1;
const HEADER = 8;

export class Mailbox {
  private header: Int32Array;
  private body: Uint8Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.header = new Int32Array(buffer, 0, 2);
    this.body = new Uint8Array(buffer, HEADER);
  }

  /** A new mailbox, or none where the page is not cross-origin isolated. */
  static create(): Mailbox | undefined {
    return typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated ? new Mailbox(new SharedArrayBuffer(HEADER + BYTES)) : undefined;
  }

  /** Holds `value` as the answer to request `id`; false when it does not fit. */
  write(id: number, value: unknown): boolean {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    Atomics.store(this.header, ID, bytes.length <= this.body.length ? -1 : 0);
    if (bytes.length > this.body.length) return false;
    this.body.set(bytes);
    Atomics.store(this.header, LENGTH, bytes.length);
    Atomics.store(this.header, ID, id);
    return true;
  }

  /** The answer to request `id`, if it is held whole. */
  read<T>(id: number): T | undefined {
    if (Atomics.load(this.header, ID) !== id) return undefined;
    const length = Atomics.load(this.header, LENGTH);
    // TextDecoder reads no shared memory: a copy of the bytes.
    const bytes = this.body.slice(0, length);
    if (Atomics.load(this.header, ID) !== id) return undefined;
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
  }
}
