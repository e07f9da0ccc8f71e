import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { analyze } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { isPackId } from '../compiler/requirements.ts';
import { isReservedName, builtinKinds } from '../dsl/language.ts';
import type { Type } from '../compiler/types.ts';
import { isPackDir } from './packs.ts';
import { PACKAGE_FILES } from './pack.ts';
import { UsageError, type Io } from './io.ts';

/** The JSON Schemas of this rulebook, which the first line of every file written here points at. */
const schemas = fileURLToPath(new URL('../schemas/', import.meta.url));

/** The line that lets the YAML language server check a file: the schema's path from the file's folder. */
function schemaLine(file: string, schema: 'manifest' | 'pack-file' | 'scenario'): string {
  const target = relative(dirname(file), join(schemas, `${schema}.schema.json`)).split(sep).join('/');
  return `# yaml-language-server: $schema=${target}\n`;
}

function write(file: string, text: string, io: Io) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, { flag: 'wx' });
  io.out(`  wrote ${file.split(sep).join('/')}\n`);
}

/**
 * `rulebook new pack NAME`: a pack folder holding a small whole game — a kind of card (`race`),
 * the board's spaces, a player's state, two actions and a flow — and a scenario of it that passes,
 * so the designer starts from something that compiles, plays and tests; and its `package.json`,
 * so it travels as an npm package (`rulebook pack`) named by its pack id.
 */
export function newPack(name: string, opts: { dir: string }, io: Io): number {
  if (!isPackId(name)) throw new UsageError(`\`${name}\` is not a pack id: lowercase letters, digits and dashes, starting with a letter (e.g. my-game)`);
  const dir = join(opts.dir, name);
  if (existsSync(dir) && readdirSync(dir).length) throw new UsageError(`\`${dir}\` already exists and is not empty; pick another name or --dir`);
  io.out(`Creating the pack ${name} in ${dir.split(sep).join('/')}\n`);
  const manifest = join(dir, 'pack.yaml');
  write(manifest, schemaLine(manifest, 'manifest') + packYaml(name), io);
  const game = join(dir, 'game.yaml');
  write(game, schemaLine(game, 'pack-file') + GAME_YAML, io);
  const scenario = join(dir, 'scenarios', 'first.yaml');
  write(scenario, schemaLine(scenario, 'scenario') + FIRST_SCENARIO, io);
  const pkg = { name, version: '0.1.0', description: `A rulebook pack: ${name}`, keywords: ['rulebook-pack'], files: PACKAGE_FILES };
  write(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`, io);
  io.out(`\nNext: rulebook test ${dir.split(sep).join('/')}\n`);
  return 0;
}

const packYaml = (id: string) => `id: ${id}
version: 0.1.0
rulebook: ^0.1
name: { en: ${JSON.stringify(id)} }
languages: [en]
players: { min: 2, max: 4 }
`;

const GAME_YAML = `# The vocabulary of the game: what kinds of things there are, what they print and what changes in play.
kinds:
  race:
    props:
      power: number          # points a space claimed by this race scores
    roles:
      active: players where race == self   # whom a race card's rules work for
  space:
    props:
      next: list<space>
    graph: next
    state:
      owner: player?
  player:
    state:
      race: race?
      points: number

entities:
  - race: giants
    name: { en: Giants }
    power: 2
  - race: elves
    name: { en: Elves }
    power: 1
    rules: |
      # A card's own rules: elves score one more for a space next to one they hold.
      modify claimValue(s) when any(neighbours(s), it.owner == holder) = value + 1
  - space: hill
    next: [wood]
  - space: wood
    next: [lake]
  - space: lake

scoring:
  score: it.points

rules: |
  pipeline claimValue(s: space): number min 0 = 1

  action pick(r: race) "Pick {r}" {
    require me.race == none else "you already play a race"
    me.race = r
  }

  action claim(s: space) "Claim {s}" {
    require s.owner == none else "{s} is taken"
    s.owner = me
    if me.race != none {
      me.points += me.race.power * claimValue(s)
    }
  }

  action pass "Pass" { }

  flow {
    for p in players {
      turn p {
        offer p: pick
      }
    }
    for round in 1..2 {
      for p in players {
        turn p {
          offer p: claim, pass
        }
      }
    }
  }
`;

const FIRST_SCENARIO = `# Run it with: rulebook test <this pack's folder>
- scenario: A player picks a race and scores its power for a space
  seed: 1
  players: 2
  steps:
    - p1: pick giants
    - p2: pick elves
    - p1: claim hill
      expect:
        hill.owner: p1
        p1.points: 2
    - p2: claim hill
      refused: taken
  expect:
    prompt: p2
`;

/**
 * `rulebook new card KIND NAME`: an entity of one of the pack's own kinds in a file of its own,
 * beside the other cards of that kind, with a scenario checking that the card is in the game as
 * written. Its props start as those of the first card of the kind (a card that already plays),
 * or at their types' defaults when there is none.
 */
export function newCard(kind: string, name: string, opts: { pack: string }, io: Io): number {
  const dir = opts.pack;
  if (!isPackDir(dir)) throw new UsageError(`\`${dir}\` is not a pack folder (no pack.yaml); give one with --pack`);
  if (!/^[a-z][A-Za-z0-9_]*$/.test(name) || isReservedName(name)) throw new UsageError(`\`${name}\` is not a card id: a lowercase letter, then letters and digits (e.g. stoneGiants), and no keyword`);
  const files = readPackFolder(dir);
  const { declared, diagnostics } = analyze(files, { dependencies: dependenciesOf(dir, files) ?? {}, lower: false });
  if (!declared) {
    io.err(`rulebook: the pack in ${dir} cannot be read (run \`rulebook check ${dir}\`)\n`);
    return 1;
  }
  const kinds = [...declared.kinds.keys()].filter((k) => !(builtinKinds as readonly string[]).includes(k)).sort();
  const k = declared.kinds.get(kind);
  if (!k || !kinds.includes(kind)) throw new UsageError(`this pack has no kind \`${kind}\`; its kinds are: ${kinds.join(', ') || '(none)'}`);
  if (declared.entities.has(name)) throw new UsageError(`this pack already has an entity \`${name}\``);
  const siblings = [...declared.entities.values()].filter((e) => e.kind === kind);
  const model = siblings.find((e) => !e.file.path.includes(':'));
  const values: Record<string, unknown> = {};
  for (const [field, sym] of k.props) {
    const given = model?.values[field];
    if (given !== undefined) values[field] = given;
    else if (!sym.type.optional) {
      const v = defaultOf(sym.type, declared);
      if (v !== undefined) values[field] = v;
    }
  }
  const label = name.replace(/^./, (c) => c.toUpperCase()).replace(/([a-z])([A-Z])/g, '$1 $2');
  const entity = { [kind]: name, name: Object.fromEntries(declared.manifest.languages.map((l) => [l, label])), ...values };
  const folder = cardFolder(dir, kind, k.plural, siblings.map((e) => e.file.path));
  const file = join(dir, folder, `${name}.yaml`);
  if (existsSync(file)) throw new UsageError(`\`${file}\` already exists`);
  const errorsBefore = diagnostics.filter((d) => d.severity === 'error').length;
  io.out(`Adding the ${kind} ${name} to ${dir.split(sep).join('/')}\n`);
  write(file, schemaLine(file, 'pack-file') + `# A ${kind} of its own: its printed values below; its own rules go in \`rules: |\`.\n` + stringify({ entities: [entity] }, { flow: false }), io);
  const scenario = join(dir, 'scenarios', folder, `${name}.yaml`);
  const checked = Object.entries(values).find(([, v]) => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean');
  const expectations = checked ? { [`${name}.${checked[0]}`]: checked[1] } : { prompt: 'p1' };
  const body = stringify([{ scenario: `The ${kind} ${name} is in the game as written`, seed: 1, players: declared.manifest.players.min, expect: expectations }]);
  write(scenario, schemaLine(scenario, 'scenario') + body, io);
  if (errorsBefore) io.out(`\nThe pack had ${errorsBefore} error(s) before this card; run \`rulebook check ${dir}\`.\n`);
  io.out(`\nNext: rulebook test ${dir.split(sep).join('/')}\n`);
  return 0;
}

/** Where cards of a kind live: the folder named for the kind's plural, else the one folder all its cards share, else a new plural folder. */
function cardFolder(dir: string, kind: string, plural: string, paths: string[]): string {
  if (existsSync(join(dir, plural))) return plural;
  const folders = new Set(paths.map((p) => p.split('/').slice(0, -1).join('/')));
  const [only] = folders;
  return folders.size === 1 && only && !only.includes(':') ? only : plural || `${kind}s`;
}

/** A value a required prop may start with: an enum's first member, the first entity of a kind, or nothing (the language's default). */
function defaultOf(type: Type, declared: NonNullable<ReturnType<typeof analyze>['declared']>): unknown {
  if (type.k === 'enum') return declared.enums.get(type.name)?.values[0];
  if (type.k === 'entity') return [...declared.entities.values()].find((e) => e.kind === type.kind)?.id;
  return undefined;
}
