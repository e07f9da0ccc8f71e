/// <reference lib="webworker" />
/**
 * The engine worker: compiles the pack being edited and runs games on the last pack that compiled
 * without errors, so the page never waits on either while the designer types.
 *
 * Compiles are coalesced: when several arrive while one runs, only the newest is compiled.
 */
import { CompileSession, lowerAnalysis, type Analysis, type CompiledPack } from '../../compiler/index.ts';
import { buildSymbols, emptySymbolIndex, type SymbolIndex } from '../../compiler/symbols.ts';
import { completionsAt, definitionsAt, hoverAt, referencesAt } from '../../compiler/services.ts';
import { checkCards, prepareTexts } from '../../compiler/text/index.ts';
import { legalChoices, standings, viewFor } from '../../runtime/index.ts';
import { ReplayLine } from './replay-line.ts';
import type { Choice, GameState, PackSummary } from './engine-types.ts';
import { agent, type AgentKind } from '../../runtime/agents.ts';
import { botOffers } from './bot-offers.ts';
import { wallClock } from './trace.ts';
import { HeldFiles, type FileList } from './file-sync.ts';
import { PostedGames } from './game-sync.ts';
import { TextNames } from './text-names.ts';
import { servicesAfterCompile } from './worker-queue.ts';
import type { CardVerdict, CompileInput, CompileRequest, GameRequest, PaintedRequest, PlayRequest, PlayResponse, ServiceAnswers, ServiceAsk, SimulateRequest, TextFindingInfo, WorkerRequest, WorkerResponse } from './protocol.ts';

import { playGame, type GameSummary } from '../../simulate/playout.ts';
import { study } from '../../simulate/study.ts';

/** The playground's bots, as `rulebook play --bots` has them. */
const PLAYGROUND_BOTS: AgentKind = 'random';

let version = 0;
/** Every keystroke compiles; the session checks again only the declarations the edit touched (compiler/incremental.ts). */
const session = new CompileSession();
let good: { version: number; pack: CompiledPack } | undefined;
/** The digest of the last summary posted: a pack message leaves out a summary the page already has (engine-client.ts). */
let summaryPosted: string | undefined;
/** Digests of the summaries and of the games as drawn, equal for an answer that draws as the last. */
const summaryNames = new TextNames();
const gameNames = new TextNames();

/** The states of the game on screen, kept for the next replay. */
const line = new ReplayLine();

/** Requests waiting for their turn, each with when it arrived (trace.ts), and a compile's files as read. */
const queue: Array<{ req: Exclude<WorkerRequest, PaintedRequest>; got: number; input?: CompileInput }> = [];
/** The pack's texts as the page has sent them: a compile brings those that changed. */
const held = new HeldFiles();
/** The games posted: one that draws as the last goes without the game. */
const games = new PostedGames();
/**
 * Scenario tests run once typing has paused for a while: they take a few hundred milliseconds and
 * the worker does one thing at a time, so running them between keystrokes would delay diagnostics.
 */
const SCENARIO_IDLE_MS = 900;
let scenarioTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * The card text check (tens of milliseconds for a pack of fifty cards) runs after every compile
 * without errors, a moment later so that a keystroke already on its way cancels it, and not before
 * the page has painted what the compile's pack made it draw (`PaintedRequest`): on a busy machine
 * it would take the processor from that frame, and its answer would be drawn ahead of it.
 */
const TEXTS_IDLE_MS = 60;
let textsTimer: ReturnType<typeof setTimeout> | undefined;
/** The card text check of the last compile without errors, waiting for the page's paint. */
let textsAfterPaint: { id: number; posted: number; run: () => void } | undefined;
/**
 * The last compile's analysis, and its symbol index once the editor's services asked for it: the
 * index takes about as long as the compile itself, and a keystroke's compile does not wait for it.
 */
let symbolsOf: { analysis: Analysis; index?: SymbolIndex } | undefined;
let scheduled = false;

// Requests wait for one turn of the event loop, so that those that arrived during a long compile
// are seen together and only the newest compile runs. The turn is a message to itself, queued
// behind those already waiting: a timer would wait a few milliseconds more (timers are clamped).
const turn = new MessageChannel();
turn.port1.onmessage = () => drain();
self.onmessage = (ev: MessageEvent<WorkerRequest>) => {
  const req = ev.data;
  if (req.type === 'painted') return painted(req.id);
  const got = wallClock();
  // Every compile's texts are taken in, also of one skipped for a newer: the next brings only its own changes.
  queue.push({ req, got, input: req.type === 'compile' ? inputOf(req) : undefined });
  if (req.type === 'compile') {
    clearTimeout(scenarioTimer);
    clearTimeout(textsTimer);
    textsAfterPaint = undefined;
  }
  if (req.type === 'simulate') simulation = undefined;
  if (!scheduled) {
    scheduled = true;
    turn.port2.postMessage(undefined);
  }
};

function drain() {
  scheduled = false;
  servicesAfterCompile(queue);
  while (queue.length) {
    const { req, got, input } = queue.shift()!;
    if (req.type === 'compile') {
      if (!queue.some((q) => q.req.type === 'compile')) compile(req.id, input!, got);
    } else if (req.type === 'simulate') {
      startSimulation(req);
    } else if (req.type === 'service') {
      post({ type: 'service', id: req.id, answer: service(req.ask) });
    } else if (queue.some((q) => q.req.type === 'play')) {
      // A newer play request makes this one moot; answer it so that nothing waits forever.
      post({ type: 'played', id: req.id, version: good?.version ?? 0, legal: [], applied: 0, error: 'superseded' });
    } else play(req, got);
  }
}

function inputOf(req: CompileRequest): CompileInput {
  const lists = new Map<string, FileList['files']>(held.take(req.sources).map((l) => [l.name, l.files]));
  const dependencies: CompileInput['dependencies'] = Object.create(null);
  for (const [name, files] of lists) if (name.startsWith('dependency:')) dependencies[name.slice('dependency:'.length)] = files;
  return { files: lists.get('pack') ?? [], scenarios: lists.get('scenarios') ?? [], dependencies, game: req.game };
}

function post(msg: WorkerResponse) {
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(msg);
}

post({ type: 'ready' });

function compile(id: number, req: CompileInput, got: number) {
  const t0 = performance.now();
  let result: Analysis;
  try {
    // Checked only: the diagnostics go to the page before the pack is lowered to run.
    result = session.analyze(req.files, { dependencies: req.dependencies, lower: false });
  } catch (e) {
    post({ type: 'compiled', id, diagnostics: [], engineProblem: `the compiler crashed: ${(e as Error).message}`, ms: performance.now() - t0 });
    return;
  }
  const analysis = result;
  const lowering = !result.diagnostics.some((d) => d.severity === 'error');
  post({ type: 'compiled', id, diagnostics: result.diagnostics, lowering, ms: performance.now() - t0, clock: { got, sent: wallClock() } });
  symbolsOf = { analysis };
  if (!lowering) return;
  const lowering0 = performance.now();
  const { diagnostics, pack } = lowerAnalysis(result, req.files, { dependencies: req.dependencies });
  const lowerMs = performance.now() - lowering0;
  if (!pack) {
    post({ type: 'pack', id, diagnostics, ms: performance.now() - t0 });
    return;
  }
  // Only plain data crosses to the page: the lowered rules are closures and stay here.
  const summaryText = JSON.stringify({ id: pack.id, name: pack.name, players: pack.players, languages: pack.languages, kinds: pack.kinds, entities: pack.entities, byKind: pack.byKind, bots: botOffers(pack), presentation: result.presentation });
  const summaryDigest = summaryNames.of(summaryText);
  const summary: PackSummary | undefined = summaryDigest === summaryPosted ? undefined : JSON.parse(summaryText);
  summaryPosted = summaryDigest;
  good = { version: ++version, pack };
  // The game on screen replays here and now: the page need not ask for it once the pack arrives.
  const replayed = req.game && { game: req.game, answer: games.post(replayGame(id, req.game, wallClock())) };
  post({ type: 'pack', id, version: good.version, summary, summaryDigest, replayed, ms: performance.now() - t0, lowerMs });
  clearTimeout(textsTimer);
  const v = good.version;
  textsAfterPaint = { id, posted: performance.now(), run: () => texts(id, v, analysis, req.dependencies) };
  if (req.scenarios.length) {
    // After the answer, and only if no newer compile arrives meanwhile (a compile cancels the timer).
    clearTimeout(scenarioTimer);
    scenarioTimer = setTimeout(() => void scenarios(id, req.scenarios), SCENARIO_IDLE_MS);
  }
}

/** The page painted compile `id`'s pack: its card text check starts once a keystroke after it would have come. */
function painted(id: number) {
  const waiting = textsAfterPaint;
  if (waiting?.id !== id) return;
  textsAfterPaint = undefined;
  clearTimeout(textsTimer);
  textsTimer = setTimeout(waiting.run, Math.max(0, TEXTS_IDLE_MS - (performance.now() - waiting.posted)));
}

/** An answer of the editor's services on the last compile's symbol index; an editor's aid never fails the page. */
function service(ask: ServiceAsk): ServiceAnswers[keyof ServiceAnswers] | null {
  if (!symbolsOf) return null;
  if (!symbolsOf.index) {
    try {
      symbolsOf.index = buildSymbols(symbolsOf.analysis);
    } catch {
      symbolsOf.index = emptySymbolIndex();
    }
  }
  const idx = symbolsOf.index;
  try {
    if (ask.op === 'outline') return idx.outline.get(ask.path) ?? [];
    const { path, text, offset } = ask;
    if (ask.op === 'completions') return completionsAt(idx, path, text, offset);
    if (ask.op === 'hover') return hoverAt(idx, path, text, offset) ?? null;
    if (ask.op === 'definitions') return definitionsAt(idx, path, text, offset);
    return referencesAt(idx, path, text, offset);
  } catch {
    return null;
  }
}

/** The card text checker on the compile that just succeeded: each card's verdict per language. */
function texts(id: number, v: number, analysis: Analysis, dependencies: CompileInput['dependencies']) {
  if (good?.version !== v) return;
  const t0 = performance.now();
  try {
    const ctx = prepareTexts(analysis, { dependencies });
    if (!ctx) return post({ type: 'texts', id, version: v, languages: [], cards: [], setup: [], ms: performance.now() - t0, error: 'the card text checker needs a pack without errors' });
    const report = checkCards(ctx);
    // Plain data only (structured clone), and only what the page shows.
    const cards: CardVerdict[] = JSON.parse(JSON.stringify(report.cards));
    const setup: TextFindingInfo[] = JSON.parse(JSON.stringify(report.diagnostics.filter((d) => d.card === '')));
    post({ type: 'texts', id, version: v, languages: report.languages, cards, setup, ms: performance.now() - t0 });
  } catch (e) {
    post({ type: 'texts', id, version: v, languages: [], cards: [], setup: [], ms: performance.now() - t0, error: `the card text checker failed: ${(e as Error).message}` });
  }
}

/**
 * The simulation running, one game at a time between other requests (a game of a real pack takes
 * tens of milliseconds), so that typing and playing stay quick. New rules (a compile without errors)
 * or a new simulation stop it.
 */
let simulation: { req: SimulateRequest; version: number; games: GameSummary[]; started: number } | undefined;

function startSimulation(req: SimulateRequest) {
  if (!good) return post({ type: 'simulated', id: req.id, version: 0, done: 0, games: req.games, ms: 0, error: 'the pack has not compiled without errors yet' });
  simulation = { req, version: good.version, games: [], started: performance.now() };
  setTimeout(simulateNext, 0);
}

function simulateNext() {
  const sim = simulation;
  if (!sim || !good) return;
  const { req } = sim;
  if (good.version !== sim.version) {
    simulation = undefined;
    return post({ type: 'simulated', id: req.id, version: sim.version, done: sim.games.length, games: req.games, ms: performance.now() - sim.started, error: 'the rules changed: run it again' });
  }
  try {
    sim.games.push(playGame(good.pack, { players: req.players, seed: req.seed + sim.games.length, agents: req.bots, maxSteps: 10_000 }));
  } catch (e) {
    simulation = undefined;
    return post({ type: 'simulated', id: req.id, version: sim.version, done: sim.games.length, games: req.games, ms: performance.now() - sim.started, error: `a game failed: ${(e as Error).message}` });
  }
  const done = sim.games.length;
  const last = done >= req.games;
  post({ type: 'simulated', id: req.id, version: sim.version, done, games: req.games, ms: performance.now() - sim.started, report: last ? study(sim.games) : undefined });
  if (last) simulation = undefined;
  else setTimeout(simulateNext, 0);
}

/** Loaded on first use, so that a problem in the scenario runner never stops the compiler. */
let scenarioModule: Promise<typeof import('../../scenario/index.ts')> | undefined;

async function scenarios(id: number, files: CompileInput['scenarios']) {
  if (!good) return;
  const { version: v, pack } = good;
  let runScenarios: (typeof import('../../scenario/index.ts'))['runScenarios'];
  try {
    ({ runScenarios } = await (scenarioModule ??= import('../../scenario/index.ts')));
  } catch (e) {
    scenarioModule = undefined;
    post({ type: 'scenarios', id, version: v, results: [], ms: 0, error: `the scenario runner could not be loaded: ${(e as Error).message}` });
    return;
  }
  if (good?.version !== v) return;
  const t0 = performance.now();
  try {
    const results = runScenarios(pack, files);
    post({ type: 'scenarios', id, version: v, results, ms: performance.now() - t0 });
  } catch (e) {
    post({ type: 'scenarios', id, version: v, results: [], ms: performance.now() - t0, error: `the scenario runner failed: ${(e as Error).message}` });
  }
}

function play(req: PlayRequest, got: number) {
  post(games.post(replayGame(req.id, req, got)));
}

/** The state after a game's choices on the last good pack, played again only from the first choice that the pack's changes or the choices' could change (replay-line.ts). */
function replayGame(id: number, req: GameRequest, got: number): PlayResponse {
  const t0 = performance.now();
  const base: PlayResponse = { type: 'played', id, version: good?.version ?? 0, legal: [], applied: 0 };
  if (!good) return { ...base, error: 'the pack has not compiled without errors yet' };
  const { pack } = good;
  try {
    const { state, applied, stoppedAt, kept, setupMs, choicesMs } = line.replay(pack, req);
    const legal = state.over ? [] : legalChoices(state);
    const view = req.viewAs ? viewFor(state, req.viewAs) : state;
    const drawn = { view, legal, applied, stoppedAt, bot: botPick(pack, state, legal, req.seed), standings: state.over ? standings(state) : undefined };
    return { ...base, state, ...drawn, digest: gameNames.of(JSON.stringify([state === view ? null : state, drawn])), ms: performance.now() - t0, parts: { setup: setupMs, choices: choicesMs, kept }, clock: { got, sent: wallClock() } };
  } catch (e) {
    line.clear();
    return { ...base, error: `the runtime failed: ${(e as Error).message}` };
  }
}

/**
 * The pick of a bot in the seat asked: the agent `rulebook play --bots` plays with, so a seed plays
 * the same game. It picks among the asked player's choices of the listing drawn (`choicesOfAsked`
 * would list them again: the same choices in the same order, with labels).
 */
function botPick(pack: CompiledPack, state: GameState, legal: Choice[], seed: number): Choice | undefined {
  const asked = state.prompt?.player;
  if (state.over || !asked) return undefined;
  const own = legal.filter((c) => c.player === asked);
  return own.length ? agent(PLAYGROUND_BOTS, seed, asked, pack).choose(state, own, asked) : undefined;
}
