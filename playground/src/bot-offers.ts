/**
 * The bots the playground offers for a pack: those of `AGENT_KINDS` that `agentSpecFor` seats for
 * it, the one check a bot passes at every seat and on the command line; the others with why they
 * are refused. The worker, which holds the compiled pack, sends them with the pack's summary, and
 * the Balance tab offers only the bots seated, as a bot refused would fail the first game it played.
 */
import type { CompiledPack } from '../../compiler/index.ts';
import { AGENT_KINDS, AgentKindError, agentSpecFor, type AgentKind } from '../../runtime/agents.ts';

/**
 * A bot of the list, and `refused`, the check's reason, for one the pack cannot seat: without the
 * check's advice on what to write instead, as no bot's name is written here.
 */
export interface BotOffer {
  kind: AgentKind;
  refused?: string;
}

/** Every kind of `AGENT_KINDS`, in its order, checked against `pack`. */
export function botOffers(pack: CompiledPack): BotOffer[] {
  return AGENT_KINDS.map((kind) => {
    try {
      agentSpecFor(kind, pack);
      return { kind };
    } catch (e) {
      if (e instanceof AgentKindError) return { kind, refused: e.reason };
      throw e;
    }
  });
}

/**
 * The bots that play when `wanted` is asked: `wanted` itself when the pack seats it, else `random`,
 * with the refusal of `wanted` to show. `random` is seated by every pack (agentSpecFor needs
 * nothing of a pack for it).
 */
export function botsPlaying(offers: readonly BotOffer[], wanted: AgentKind): { kind: AgentKind; refused?: string } {
  const refused = offers.find((o) => o.kind === wanted)?.refused;
  return refused === undefined ? { kind: wanted } : { kind: 'random', refused };
}
