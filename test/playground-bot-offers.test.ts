/**
 * The bots the playground's Balance tab offers (playground/src/bot-offers.ts): on the shipped packs
 * and a test pack, each bot offered is seated and plays, each bot not offered is refused at its seat
 * with the message the tab shows; an edit that takes a pack's preference away takes the `prefer`
 * bot off its list, and the bots asked for then give way to random ones, with why.
 */
import { describe, expect, it } from 'vitest';
import { compile, type CompiledPack, type SourceFile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { AGENT_KINDS, agent, playByAgents } from '../runtime/agents.ts';
import { botOffers, botsPlaying } from '../playground/src/bot-offers.ts';

function packOf(dir: string, edit: (f: SourceFile) => SourceFile = (f) => f): CompiledPack {
  const files = readPackFolder(dir).map(edit);
  const r = compile(files, { dependencies: dependenciesOf(dir, files) });
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.pack!;
}

/** WotLK with its `scoring: prefer` (the last block of rules/game.yaml) taken out. */
const withoutPreference = (f: SourceFile): SourceFile => {
  if (f.path !== 'rules/game.yaml') return f;
  const at = f.text.indexOf('\n  prefer:\n');
  expect(at).toBeGreaterThan(0);
  return { ...f, text: f.text.slice(0, at + 1) };
};

describe('the bots the playground offers for a pack', () => {
  const smallWorld = packOf('content/smallworld-wow');
  const wotlk = packOf('content/wotlk');
  const vault = packOf('test/packs/vault');
  const wotlkUnpreferred = packOf('content/wotlk', withoutPreference);

  it('lists every bot of AGENT_KINDS in order, prefer refused for a pack with no preference, seated for one with', () => {
    const offered = (pack: CompiledPack) => botOffers(pack).filter((o) => o.refused === undefined).map((o) => o.kind);
    for (const pack of [smallWorld, wotlk, vault, wotlkUnpreferred]) expect(botOffers(pack).map((o) => o.kind)).toEqual(AGENT_KINDS);
    expect(offered(smallWorld)).toEqual(['random', 'greedy', 'mcts:20', 'mcts:20:team']);
    expect(offered(wotlkUnpreferred)).toEqual(['random', 'greedy', 'mcts:20', 'mcts:20:team']);
    expect(offered(wotlk)).toEqual(AGENT_KINDS);
    expect(offered(vault)).toEqual(AGENT_KINDS);
    const refused = botOffers(smallWorld).find((o) => o.kind === 'prefer')!.refused;
    expect(refused).toMatch(/^`prefer` is not a bot for .*: it plays the pack's `scoring: prefer`, which it does not declare/);
    // The reason alone: the tab has no name to write, so the command line's advice is left out of it.
    expect(refused).not.toContain('write');
    expect(() => agent('prefer', 1, 'p1', smallWorld)).toThrow(`${refused}; write \`random\``);
  });

  it('a bot offered plays a game of its pack; a bot not offered is refused at its seat with the message shown', () => {
    for (const pack of [smallWorld, vault, wotlkUnpreferred]) {
      for (const offer of botOffers(pack)) {
        if (offer.refused !== undefined) {
          expect(() => agent(offer.kind, 1, 'p1', pack)).toThrow(offer.refused);
          continue;
        }
        // A few choices each: the seat is taken and the bot picks legal choices.
        const { state, stopped } = playByAgents(pack, { players: pack.players.min, seed: 3, agents: offer.kind, maxSteps: 3 });
        expect(stopped, `${pack.id} ${offer.kind}`).toEqual({ kind: 'limit', reason: 'no end after 3 choices' });
        expect(state.choices.length).toBe(3);
      }
    }
  });

  it('the bots asked for play where the pack seats them, random ones with the refusal where it does not', () => {
    expect(botsPlaying(botOffers(wotlk), 'prefer')).toEqual({ kind: 'prefer' });
    expect(botsPlaying(botOffers(wotlk), 'mcts:20:team')).toEqual({ kind: 'mcts:20:team' });
    const after = botsPlaying(botOffers(wotlkUnpreferred), 'prefer');
    expect(after.kind).toBe('random');
    expect(after.refused).toBe(botOffers(wotlkUnpreferred).find((o) => o.kind === 'prefer')!.refused);
    expect(botsPlaying(botOffers(smallWorld), 'greedy')).toEqual({ kind: 'greedy' });
  });
});
