/**
 * What the playground can load again: the one test applied before a pack's files or a game are kept
 * (localStorage, a share link, a folder saved back to) and when they are read back. A pack with
 * compile errors is loadable (it is being edited); a file set that is no pack, or that the compiler
 * would refuse to read, is not, and neither is a game whose options do not fit together.
 */
import manifestSchema from '../../schemas/manifest.schema.json' with { type: 'json' };
import { MAX_FILE_BYTES, MAX_PACK_BYTES, megabytes } from '../../compiler/load.ts';
import type { Seat, Session } from './workspace.ts';

export const MAX_FILES = 2000;
const MAX_CHOICES = 100_000;
const MAX_PLAYERS: number = manifestSchema.properties.players.properties.max.maximum;

/** A path a pack file may have: relative, inside the pack, a YAML file. */
export function isPackPath(path: string): boolean {
  return path.length < 500 && /\.ya?ml$/.test(path) && !path.startsWith('/') && !path.split(/[\\/]/).some((s) => s === '' || s === '.' || s === '..') && !/[\u0000-\u001f]/.test(path);
}

/** Why these files are not a pack the playground can open again, if they are not. */
export function packFilesProblem(files: unknown): string | undefined {
  if (!files || typeof files !== 'object' || Array.isArray(files)) return 'it holds no files';
  const entries = Object.entries(files);
  if (entries.length > MAX_FILES) return `it holds more than ${MAX_FILES} files`;
  let total = 0;
  for (const [path, text] of entries) {
    if (!isPackPath(path)) return `it holds \`${path.slice(0, 80)}\`, which is not a pack file (a .yaml path inside the pack)`;
    if (typeof text !== 'string') return `\`${path}\` is not text`;
    if (text.length > MAX_FILE_BYTES) return `\`${path}\` is larger than a pack file may be (${megabytes(MAX_FILE_BYTES)})`;
    total += text.length;
  }
  if (total > MAX_PACK_BYTES) return `it holds more than a pack may (${megabytes(MAX_PACK_BYTES)} in all)`;
  if (typeof (files as Record<string, unknown>)['pack.yaml'] !== 'string') return 'it has no pack.yaml';
  return undefined;
}

const SEATS: readonly Seat[] = ['human', 'bot'];
const isText = (x: unknown): x is string => typeof x === 'string' && x.length < 10_000;

/** Why a game cannot be replayed, if it cannot. */
export function sessionProblem(raw: unknown): string | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'it is not a game';
  const s = raw as Partial<Record<keyof Session, unknown>>;
  if (!Number.isSafeInteger(s.players) || (s.players as number) < 1 || (s.players as number) > MAX_PLAYERS) return `its number of players is not a whole number from 1 to ${MAX_PLAYERS}`;
  if (!Number.isSafeInteger(s.seed)) return 'its seed is not a whole number';
  if (!Array.isArray(s.seats) || s.seats.length !== s.players || !s.seats.every((x) => SEATS.includes(x as Seat))) return 'its seats are not one human or bot per player';
  if (!Array.isArray(s.choices) || s.choices.length > MAX_CHOICES || !s.choices.every(isText)) return 'its choices are not a list of moves';
  if (!Array.isArray(s.madeBy) || s.madeBy.length !== s.choices.length || !s.madeBy.every(isText)) return 'it does not say who made each move';
  return undefined;
}
