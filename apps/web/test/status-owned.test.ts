import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ownedServerView } from '../src/lib/status-owned.ts';

const feed = [{ name: 'leafy', status: 'ONLINE' as const, players: 3, version: '1.0' }];

describe('ownedServerView', () => {
  it('a failed status feed makes the server UNKNOWN, not OFFLINE: it may be running', () => {
    assert.deepEqual(ownedServerView(undefined, true, 'leafy'), {
      name: 'leafy',
      status: 'UNKNOWN',
      players: 0,
      version: 'N/A',
    });
    // Data from before the failure is not trusted either.
    assert.equal(ownedServerView(feed, true, 'leafy')?.status, 'UNKNOWN');
  });
  it('a feed that answered: the listed entry, or OFFLINE when the server is missing from it', () => {
    assert.deepEqual(ownedServerView(feed, false, 'leafy'), feed[0]);
    assert.equal(ownedServerView([], false, 'leafy')?.status, 'OFFLINE');
  });
  it('null without a server', () => {
    assert.equal(ownedServerView(undefined, true, 'No Server'), null);
  });
});
