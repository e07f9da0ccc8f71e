/** Thrown by a failed `require` or a rule that cannot go on; `apply` turns it into a refusal. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly where?: string,
  ) {
    super(message);
  }
}
