/**
 * The mailbox a compile's answer is written to for the page to read in the keystroke's frame
 * (playground/src/mailbox.ts): the page reads the answer of the id it asks for, whole, or nothing.
 * The page's side in Chromium is tested by test/e2e/playground.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Mailbox } from '../playground/src/mailbox.ts';

const answer = (id: number, message: string) => ({ type: 'compiled', id, diagnostics: [{ file: 'rules/a.yaml', offset: 3, endOffset: 4, severity: 'error', code: 'E1', message }], ms: 4.5 });

describe('a compile answer in shared memory', () => {
  it('is read back as written, for its own id only', () => {
    const writer = new Mailbox(new SharedArrayBuffer(8 + (1 << 20)));
    const reader = new Mailbox(writer.buffer);
    expect(reader.read(1)).toBeUndefined();
    expect(writer.write(1, answer(1, 'ünïcödé ✓'))).toBe(true);
    expect(reader.read(1)).toEqual(answer(1, 'ünïcödé ✓'));
    expect(reader.read(2)).toBeUndefined();
    // A shorter answer after a longer one: only its own bytes are read.
    expect(writer.write(2, answer(2, 'x'))).toBe(true);
    expect(reader.read(2)).toEqual(answer(2, 'x'));
    expect(reader.read(1)).toBeUndefined();
  });

  it('holds no answer too long for it, nor the one before it', () => {
    const writer = new Mailbox(new SharedArrayBuffer(8 + (1 << 20)));
    const reader = new Mailbox(writer.buffer);
    writer.write(1, answer(1, 'short'));
    expect(writer.write(2, answer(2, 'y'.repeat(1 << 20)))).toBe(false);
    expect(reader.read(2)).toBeUndefined();
    expect(reader.read(1)).toBeUndefined();
  });

  it('is none where the page is not cross-origin isolated', () => {
    expect('crossOriginIsolated' in globalThis).toBe(false);
    expect(Mailbox.create()).toBeUndefined();
  });
});
