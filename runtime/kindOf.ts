import { isPlayerId } from './players.ts';
import type { Table } from './table.ts';
import type { EntityInfo } from './types.ts';

/** A pack's `kindOf`: the kind of an entity id, `game` and the players' ids included. */
export function kindLookup(entities: Table<EntityInfo>): (id: string) => string | undefined {
  return (id) => entities[id]?.kind ?? (id === 'game' ? 'game' : isPlayerId(id) ? 'player' : undefined);
}
