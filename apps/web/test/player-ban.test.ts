import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { playerListResponseSchema } from '@canopy/contract';
import { banActionOf } from '../src/features/players/player-ban.ts';

describe('banned players in the Player Database', () => {
  it('the list row carries the ban state, and a list without it is refused', () => {
    const row = { id: 1, name: 'Grower1', level: 3, gems: 10, roles: [] };
    assert.equal(playerListResponseSchema.safeParse({ players: [row], total: 1 }).success, false);
    const parsed = playerListResponseSchema.parse({ players: [{ ...row, banned: true }], total: 1 });
    assert.equal(parsed.players[0]?.banned, true);
  });

  it('offers Unban for a banned player and Ban for everyone else', () => {
    assert.equal(banActionOf({ banned: true }), 'unban');
    assert.equal(banActionOf({ banned: false }), 'ban');
  });
});
