import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlayerListRow } from '@canopy/contract';
import {
  emptyPlayersReason,
  filterPlayers,
  minimumOf,
  noPlayerFilters,
  roleOptions,
} from '../src/features/players/player-filters.ts';

const row = (id: number, name: string, level: number, gems: number, roles: string[] = []): PlayerListRow => ({
  id,
  name,
  level,
  gems,
  roles,
  banned: false,
});
const players = [
  row(1, 'DarkGrower1', 5, 100),
  row(2, 'darkfarmer', 50, 90_000, ['VIP']),
  row(3, 'Mod', 20, 0, ['Moderator', 'VIP']),
];
const names = (list: PlayerListRow[]) => list.map((p) => p.name);

describe('filterPlayers', () => {
  it('keeps everyone without filters', () => {
    assert.equal(filterPlayers(players, noPlayerFilters).length, 3);
  });

  it('searches names case-insensitively', () => {
    assert.deepEqual(names(filterPlayers(players, { ...noPlayerFilters, search: ' DARK ' })), [
      'DarkGrower1',
      'darkfarmer',
    ]);
  });

  it('applies Min Level and Min Gems as inclusive bounds, ignoring blank or unreadable entries', () => {
    assert.deepEqual(names(filterPlayers(players, { ...noPlayerFilters, minLevel: '20' })), ['darkfarmer', 'Mod']);
    assert.deepEqual(names(filterPlayers(players, { ...noPlayerFilters, minGems: '100' })), [
      'DarkGrower1',
      'darkfarmer',
    ]);
    assert.equal(filterPlayers(players, { ...noPlayerFilters, minLevel: 'abc', minGems: ' ' }).length, 3);
  });

  it('filters by role and combines all filters', () => {
    assert.deepEqual(names(filterPlayers(players, { ...noPlayerFilters, role: 'VIP' })), ['darkfarmer', 'Mod']);
    assert.deepEqual(names(filterPlayers(players, { search: 'dark', minLevel: '', minGems: '', role: 'VIP' })), [
      'darkfarmer',
    ]);
    assert.deepEqual(filterPlayers(players, { ...noPlayerFilters, role: 'Developer' }), []);
  });
});

describe('filter bar helpers', () => {
  it('offers the roles present, once each, sorted', () => {
    assert.deepEqual(roleOptions(players), ['Moderator', 'VIP']);
    assert.deepEqual(roleOptions([]), []);
  });

  it('reads minimums', () => {
    assert.equal(minimumOf(''), null);
    assert.equal(minimumOf(' 7 '), 7);
    assert.equal(minimumOf('x'), null);
  });

  it('tells the two empty texts apart', () => {
    assert.equal(emptyPlayersReason(0, 0), 'none');
    assert.equal(emptyPlayersReason(3, 0), 'filtered');
    assert.equal(emptyPlayersReason(3, 1), null);
  });
});
