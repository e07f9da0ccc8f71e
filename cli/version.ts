import { readFileSync } from 'node:fs';

/** The version in rulebook's own package.json. */
export function rulebookVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
