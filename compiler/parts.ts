/**
 * A list of texts collected anew on every compile of a session to tell whether what it describes
 * changed (the environment of the checks, the types of entity values). While the texts pushed are
 * those of the last list, in order, nothing is copied and `list()` gives that list itself, so an
 * unchanged description allocates nothing and compares at once; the first text that differs
 * starts a list of its own.
 */
export class Parts {
  private matched = 0;
  private own: string[] | undefined;

  constructor(private readonly last: readonly string[]) {}

  /** Pushes up to three texts (fixed parameters: a hot loop makes no array of them). */
  push(a: string, b?: string, c?: string): void {
    this.one(a);
    if (b !== undefined) this.one(b);
    if (c !== undefined) this.one(c);
  }

  private one(x: string): void {
    if (!this.own) {
      if (this.matched < this.last.length && this.last[this.matched] === x) {
        this.matched++;
        return;
      }
      this.own = this.last.slice(0, this.matched);
    }
    this.own.push(x);
  }

  /** The texts pushed: the last list itself when they are all of it. */
  list(): readonly string[] {
    if (this.own) return this.own;
    return this.matched === this.last.length ? this.last : this.last.slice(0, this.matched);
  }
}
