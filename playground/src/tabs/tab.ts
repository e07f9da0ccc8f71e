/**
 * A tab of the panel under the editor. Adding one: write a module that implements this, and list it
 * in `tabs/index.ts`.
 */
export interface Tab {
  /** Its `data-testid` is `tab-<id>`. */
  readonly id: string;
  /** The label in the tab bar; null hides the tab while it has nothing to show. */
  label(): Array<HTMLElement | string> | null;
  /** A note beside the tab bar while the tab is open. */
  note?(): HTMLElement | string | null;
  /** Draws the tab's content. */
  render(into: HTMLElement): void;
  /** Another pack was opened: forget what belonged to the last one. */
  reset?(): void;
}
