/**
 * A pack's files by path. The map has no prototype: a pack names its files and its dependencies, and
 * no name it gives may reach Object's own members (`constructor`, `__proto__`).
 */
export type PackFiles = Record<string, string>;

/** A new map holding the files of each source in turn, a later source's text winning. */
export function packFiles(...from: Array<Readonly<Record<string, string>> | undefined>): PackFiles {
  return Object.assign(Object.create(null) as PackFiles, ...from);
}
