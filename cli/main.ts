import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { AgentKindError } from '../runtime/agents/index.ts';
import { check } from './check.ts';
import { cleanIo, processIo, UsageError, type Io } from './io.ts';
import { newCard, newPack } from './new.ts';
import { packCommand } from './pack.ts';
import { play } from './play.ts';
import { serve } from './serve.ts';
import { simulateCommand, simulateMergeCommand } from './simulate.ts';
import { test } from './test.ts';
import { text } from './text.ts';
import { rulebookVersion } from './version.ts';
import { workerCommand } from './worker.ts';

/**
 * The `rulebook` command. Returns the exit code: 0 ok, 1 failures or errors in the packs or
 * scenarios, 2 a wrong command line. Writes only through `io`, so tests run it in-process.
 */
export async function main(argv: string[], terminalIo: Io = processIo()): Promise<number> {
  const io = cleanIo(terminalIo);
  let code = 0;
  const program = new Command('rulebook')
    .description('A rules language for board and card games: check packs, play them, run their scenario tests.')
    .exitOverride()
    // A command's options are read by that command only: `simulate merge --json` is merge's --json, not simulate's.
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError('(add --help for usage)')
    .helpCommand(true)
    .version(rulebookVersion(), '-V, --version', "print rulebook's version");

  program
    .command('check')
    .description('compile pack folders (with the packs they extend, from sibling folders) and print their diagnostics')
    .argument('<pack...>', 'pack folders (with a pack.yaml), or folders of packs such as content/')
    .option('--json', 'print the diagnostics as JSON')
    .addHelpText('after', '\nExit code: 0 when no pack has an error, 1 otherwise, 2 for a wrong command line.\nExample: rulebook check content/smallworld-wow')
    .action((packs: string[], opts: { json?: boolean }) => {
      code = check(packs, opts, io);
    });

  program
    .command('play')
    .description('play a whole game: by seeded bots (--bots), or yourself on standard input')
    .argument('<pack>', 'a pack folder')
    .option('--players <n>', "number of players (default: the pack's minimum)", positiveInt)
    .option('--seed <s>', 'seed of the game and of the bots', integer, 1)
    .option('--bots [kind...]', 'every player is a bot: random (a uniform pick, the default), greedy (the best lead at the end of its turn), prefer (the choice the pack\'s scoring: prefer likes most) or mcts:<iterations>[:team] (a tree search; docs/bots.md); one for every seat, or one per seat')
    .option('--max-steps <k>', 'stop after this many choices', positiveInt, 10000)
    .option('--quiet', 'print only the outcome and the standings, not the log')
    .option('--json', 'print the choices, log and standings as JSON')
    .addHelpText('after', '\nThe same seed plays the same game and prints the same log.\nExit code: 0 when the game ran, 1 when the pack does not compile or the game got stuck, 2 for a wrong command line.\nExamples: rulebook play content/smallworld-wow --players 3 --seed 7 --bots\n          rulebook play content/smallworld-wow --players 2 --bots greedy random\n          rulebook play content/wotlk --players 2 --bots mcts:200:team')
    .action(async (pack: string, opts: { players?: number; seed: number; bots?: boolean | string[]; maxSteps: number; quiet?: boolean; json?: boolean }) => {
      code = await play(pack, opts, io);
    });

  const simulateCommandLine = program
    .command('simulate')
    .enablePositionalOptions()
    .description('play many games by bots and print a balance study: wins by seat, by card of each kind and by pair, with 95% intervals and flags outside the fair band, the first player, game length')
    .argument('<pack>', 'a pack folder')
    .option('--games <n>', 'number of games', positiveInt, 100)
    .option('--players <n>', "number of players (default: the pack's minimum)", positiveInt)
    .option('--seed <s>', 'seed of the first game; the others follow (seed + 1, …)', integer, 1)
    .option('--bots <kind...>', 'random (a uniform pick), greedy (the best lead at the end of its turn), prefer (the choice the pack\'s scoring: prefer likes most) or mcts:<iterations>[:team] (a tree search; docs/bots.md); one for every seat, or one per seat', ['random'])
    .option('--max-steps <k>', 'give up on a game after this many choices', positiveInt, 10000)
    .option('--workers <n>', 'threads playing, this one included (default: one per core)', positiveInt)
    .option('--json', 'print the figures as JSON')
    .option('--html <file>', 'also write the study as one self-contained HTML page with charts')
    .option('--margin <points>', 'half-width of the fair band around an even share, in percentage points', margin, 5)
    .option('--shard <i/n>', 'play only shard i of n (a block of the seeds) and write its games as a results file, for `simulate merge`')
    .option('--out <file>', 'write the games played to this results file (with --shard: instead of standard output)')
    .option('--queue <redis-url>', 'spread the study over `rulebook worker`s through a BullMQ queue on this Redis, then print it')
    .option('--shards <n>', 'with --queue: shards of the study (default 8)', positiveInt)
    .option('--packs <folder>', "with --queue: the folder the workers' --packs name (default: the pack folder's parent)")
    .option('--prefix <name>', 'with --queue: prefix of the queue in Redis, to keep groups of studies apart')
    .addHelpText('after', '\nThe same options give the same figures, whatever the number of threads, shards or machines (docs/distributed.md).\nExit code: 0 when every game ended, 1 when the pack does not compile or a game got stuck, 2 for a wrong command line.\nExamples: rulebook simulate content/smallworld-wow --players 3 --games 40 --html study.html\n          rulebook simulate content/smallworld-wow --players 4 --games 400 --bots greedy random random random --margin 3\n          rulebook simulate content/wroth --games 2000 --shard 3/4 --out wroth-3.jsonl\n          rulebook simulate content/wroth --games 2000 --queue redis://127.0.0.1:6379')
    .action(async (pack: string, opts: { games: number; players?: number; seed: number; bots: string[]; maxSteps: number; workers?: number; json?: boolean; html?: string; margin: number; shard?: string; out?: string; queue?: string; shards?: number; packs?: string; prefix?: string }) => {
      code = await simulateCommand(pack, opts, io);
    });
  simulateCommandLine
    .command('merge')
    .description("join the results files of a study's shards and print the study, as one run would")
    .argument('<file...>', 'results files written by `rulebook simulate --shard i/n`, one for every shard, in any order')
    .option('--pack <folder>', "the pack folder the shards played, for its cards' names")
    .option('--json', 'print the figures as JSON')
    .option('--html <file>', 'also write the study as one self-contained HTML page with charts')
    .option('--margin <points>', 'half-width of the fair band around an even share, in percentage points', margin, 5)
    .addHelpText('after', '\nShards of different studies (pack content, rulebook version, settings), a shard missing or given twice are refused.\nExit code: 0 when every game ended, 1 when the shards are refused or a game got stuck, 2 for a wrong command line.\nExample: rulebook simulate merge wroth-*.jsonl --pack content/wroth')
    .action(async (files: string[], opts: { pack?: string; json?: boolean; html?: string; margin: number }) => {
      code = await simulateMergeCommand(files, opts, io);
    });

  program
    .command('worker')
    .description('play the shards of studies queued with `rulebook simulate --queue` on a Redis, until stopped')
    .argument('<redis-url>', 'the Redis of the queue, such as redis://127.0.0.1:6379')
    .requiredOption('--packs <folder>', 'the folder holding the packs (such as content/); a job naming a pack outside it is refused')
    .option('--jobs <n>', 'shards played at once, each in its own thread (default: one per core)', positiveInt)
    .option('--lock <seconds>', 'how long a shard stays claimed by a worker that stopped answering before another worker plays it', positiveInt, 30)
    .option('--prefix <name>', 'prefix of the queue in Redis (as given to simulate --prefix)')
    .addHelpText('after', '\nCtrl-C (or SIGTERM) stops it once the shards it began are played.\nExit code: 0 when stopped, 1 when Redis cannot be reached, 2 for a wrong command line.\nExample: rulebook worker redis://10.0.0.5:6379 --packs content')
    .action(async (url: string, opts: { packs: string; jobs?: number; lock: number; prefix?: string }) => {
      code = await workerCommand(url, opts, io);
    });

  program
    .command('test')
    .description("run scenario tests: a pack folder (its scenarios/), a scenario file, or a folder of packs")
    .argument('<path...>', 'pack folders, scenario files, or folders holding them')
    .option('--grep <text>', 'run only scenarios whose name contains this text')
    .option('--json', 'print the results as JSON')
    .addHelpText('after', '\nEnds with a line `N passed, N failed`.\nExit code: 0 when every scenario passed, 1 otherwise, 2 for a wrong command line.\nExample: rulebook test content/smallworld-wow')
    .action((paths: string[], opts: { grep?: string; json?: boolean }) => {
      code = test(paths, opts, io);
    });

  program
    .command('text')
    .description("check every card's text, in every language the pack declares, against the card's rules; or draft a translation from the rules")
    .argument('<pack...>', 'pack folders (with a pack.yaml), or folders of packs such as content/')
    .option('--lang <lang...>', 'only these languages (default: every language the pack declares)')
    .option('--draft <lang>', "print every card rendered from its rules in this language, for a translator to polish")
    .option('--out <file>', 'with --draft or --export: write to this file')
    .option('--json', 'print the report as JSON')
    .option('--export <format>', 'write every card\'s text for a translator\'s tool, as `po` (gettext) or `xliff` (1.2): give the language before the pack')
    .option('--import <file>', 'read a translated PO or XLIFF file back into the cards\' YAML, then check those texts')
    .addHelpText('after', '\nExit code: 0 when every text agrees with its rules, 1 otherwise, 2 for a wrong command line.\nExamples: rulebook text content/smallworld-wow --lang pl\n          rulebook text --draft de content/smallworld-wow --out draft.de.yaml\n          rulebook text --export po de content/smallworld-wow --out de.po\n          rulebook text --import de.po content/smallworld-wow')
    .action((packs: string[], opts: { lang?: string[]; draft?: string; out?: string; json?: boolean; export?: string; import?: string }) => {
      code = text(packs, opts, io);
    });

  program
    .command('lsp')
    .description('the language server, on standard input and output: diagnostics, completion, hover, definitions, references, rename and quick fixes in any editor (see editors/vscode)')
    .option('--stdio', 'talk over standard input and output (the only way; editors pass it)')
    .action(async () => {
      // Loaded only here: the protocol library is not worth loading for the other commands.
      const { lsp } = await import('./lsp.ts');
      code = await lsp();
    });

  program
    .command('pack')
    .description('write the pack as an npm package tarball (<id>-<version>.tgz): only its YAML, scenarios, notes and package.json')
    .argument('[path]', 'the pack folder', '.')
    .option('--out <folder>', 'where to write the tarball', '.')
    .addHelpText('after', "\nA package.json beside pack.yaml must name the package by the pack's id and give pack.yaml's version; without one, it is made from pack.yaml.\nOther packs find it, once installed (npm install ./<id>-<version>.tgz), in node_modules.\nExit code: 0 when written, 1 when the pack does not compile, 2 for a wrong command line.\nExample: rulebook pack examples/modder-race --out dist")
    .action((path: string, opts: { out?: string }) => {
      code = packCommand(path, opts, io);
    });

  program
    .command('serve')
    .description('the playground, with the packs of a folder of your own (a pack, or a folder of packs) opened in it, read-only')
    .argument('[path]', 'a pack folder, or a folder of packs')
    .option('--port <n>', 'the port to serve on', positiveInt, 5173)
    .option('--host <host>', 'the address to listen on (default: localhost only)')
    .addHelpText('after', '\nThe same as `npm start -- PATH`. Edits are kept in the browser; save them back from the playground (Open folder) or export a zip.\nExample: rulebook serve my-game')
    .action(async (path: string | undefined, opts: { port: number; host?: string }) => {
      code = await serve(path, opts, io);
    });

  const scaffold = program.command('new').description('start a pack, or a card of a kind a pack declares, with a first scenario');
  scaffold
    .command('pack')
    .description('a new pack folder: a small game, its scenario, and $schema lines that point at this rulebook')
    .argument('<name>', 'the pack id: lowercase letters, digits and dashes')
    .option('--dir <folder>', 'where to put the pack folder', '.')
    .addHelpText('after', '\nExample: rulebook new pack my-game && rulebook test my-game')
    .action((name: string, opts: { dir: string }) => {
      code = newPack(name, opts, io);
    });
  scaffold
    .command('card')
    .description("a new entity of one of the pack's kinds, in its own file, with a scenario that checks it is in the game")
    .argument('<kind>', "one of the pack's kinds (`rulebook new card --pack P x y` lists them when the kind is wrong)")
    .argument('<name>', 'the id of the new card: a letter, then letters and digits')
    .option('--pack <folder>', 'the pack folder', '.')
    .addHelpText('after', '\nExample: rulebook new card race ogres --pack my-game')
    .action((kind: string, name: string, opts: { pack: string }) => {
      code = newCard(kind, name, opts, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError || e instanceof AgentKindError) {
      io.err(`rulebook: ${e.message}\n`);
      return 2;
    }
    io.err(`rulebook: internal error: ${(e as Error).stack ?? e}\n`);
    return 1;
  }
}

function integer(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number');
  return Number(value);
}

/** A fair band's half-width: a number of percentage points from 0 to 100. */
function margin(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || n > 100) throw new InvalidArgumentError('expected percentage points from 0 to 100, such as 5 or 2.5');
  return n;
}

function positiveInt(value: string): number {
  const n = integer(value);
  if (n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}
