import type { CompiledPack } from '../../runtime/index.ts';
import { compileOk } from './inlinePack.ts';

/**
 * A pack whose card kinds keep their holders with the state in each way `keptKinds` knows: a
 * token's role reads fields only of the spots whose key field `treasure` names it (the spot's
 * `owner`, `closed`), a charm's reads a neighbour's `owner` (the whole kind stale at a write), a
 * card's a player's `hand`. Those of `owner`, `treasure` and `hand` named in `hidden` are hidden, so that a
 * search's worlds deal them anew. Without `charm`, no charm: a write of `owner` then makes stale only
 * the token its spot's key names, not the whole charm kind with it. Spot `a` holds
 * the gem, `b` the orb and is the first player's, `a` the last's; every hand starts with every card.
 */
export function keyedPack(hidden: ReadonlyArray<'owner' | 'treasure' | 'hand'> = [], charm = true): CompiledPack {
  const of = (field: 'owner' | 'treasure' | 'hand', type: string) => (hidden.includes(field) ? `{ type: ${type}, hidden: true }` : type);
  const charmed = (text: string) => (charm ? text : '');
  return compileOk(`
kinds:
  token:
    roles:
      active: first(spots where treasure == self and not closed).owner
${charmed(`  charm:
    roles:
      active: first(neighbours(first(spots where charm == self))).owner
`)}  card:
    roles:
      active: players where self in hand
  spot:
    props:
      next: list<spot>
    graph: next
    state:
${charmed(`      charm: charm?
`)}      owner: ${of('owner', 'player?')}
      treasure: ${of('treasure', 'token?')}
      closed: bool
  player:
    state:
      score: number
      hand: ${of('hand', 'list<card>')}
entities:
  - spot: a
    next: [b]
  - spot: b
    next: [a, c]
  - spot: c
    next: [b]
  - token: gem
    rules: |
      on took(p) when p == holder {
        holder.score += 10
      }
  - token: orb
    rules: |
      modify worth() = value + 5
  - token: key
${charmed(`  - charm: ring
    rules: |
      modify worth() = value + 100
`)}  - card: ace
    rules: |
      modify worth() = value + 1000
  - card: two
    rules: |
      on took(p) when p == holder {
        holder.score += 1
      }
  - card: three
rules: |
  event took(p: player)
  pipeline worth(): number = 1
  setup {
    a.treasure = gem
    b.treasure = orb
    b.owner = first(players)
    for p in players {
      a.owner = p
      p.hand = [ace, two, three]
    }
  }
  action grab(s: spot in spots) "Take {s}" {
    s.owner = me
    me.score += worth()
    emit took(me)
  }
  action close(s: spot in spots) "Close {s}" {
    s.closed = not s.closed
  }
  action hide(s: spot in spots, t: token in tokens) "Hide {t} in {s}" {
    s.treasure = t
  }
${charmed(`  action bind(s: spot in spots) "Bind the ring to {s}" {
    s.charm = ring
  }
`)}  action pass(c: card in cards) "Take {c}" {
    for p in players {
      p.hand -= [c]
    }
    me.hand += [c]
  }
  flow {
    repeat 8 {
      for p in players {
        turn p { offer p: grab, close, hide, ${charmed('bind, ')}pass }
      }
    }
  }
`);
}
