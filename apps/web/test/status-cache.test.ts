import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatusFeedEntry } from '@canopy/contract';
import { applyStatusUpdate, createPushLog, pushNeedsRefetch, withServerStatus } from '../src/lib/status-cache.ts';

const feed: StatusFeedEntry[] = [
  { name: 'Alpha', status: 'OFFLINE', players: 0, version: '4.61' },
  { name: 'Beta', status: 'ONLINE', players: 7, version: '4.62' },
];

describe('applyStatusUpdate', () => {
  it("replaces that server's status and players and keeps its version and the others", () => {
    assert.deepEqual(applyStatusUpdate(feed, { name: 'Alpha', status: 'ONLINE', players: 3 }), [
      { name: 'Alpha', status: 'ONLINE', players: 3, version: '4.61' },
      feed[1],
    ]);
  });

  it('appends a server the feed did not list, with version N/A', () => {
    const next = applyStatusUpdate(feed, { name: 'Gamma', status: 'STARTING', players: 0 });
    assert.equal(next.length, 3);
    assert.deepEqual(next[2], { name: 'Gamma', status: 'STARTING', players: 0, version: 'N/A' });
  });

  it('does not modify the cached list in place', () => {
    const copy = structuredClone(feed);
    applyStatusUpdate(feed, { name: 'Beta', status: 'OFFLINE', players: 0 });
    assert.deepEqual(feed, copy);
  });
});

describe('withServerStatus', () => {
  it('sets the optimistic status and keeps players and version', () => {
    assert.deepEqual(withServerStatus(feed, 'Beta', 'RESTARTING')[1], {
      name: 'Beta',
      status: 'RESTARTING',
      players: 7,
      version: '4.62',
    });
  });

  it('adds a missing server as the card shows it', () => {
    assert.deepEqual(withServerStatus([], 'Mine', 'STARTING'), [
      { name: 'Mine', status: 'STARTING', players: 0, version: 'N/A' },
    ]);
  });
});

describe('push log', () => {
  it('re-applies the pushes received after the mark over an older fetch answer', () => {
    const log = createPushLog();
    log.record({ name: 'Alpha', status: 'STARTING', players: 0 });
    const mark = log.mark();
    log.record({ name: 'Alpha', status: 'ONLINE', players: 1 });
    // The fetch answer was computed before the ONLINE push.
    const fetched: StatusFeedEntry[] = [{ name: 'Alpha', status: 'STARTING', players: 0, version: '4.61' }];
    assert.deepEqual(log.mergeSince(fetched, mark), [{ name: 'Alpha', status: 'ONLINE', players: 1, version: '4.61' }]);
  });

  it('leaves a fetch alone when nothing was pushed since its mark', () => {
    const log = createPushLog();
    log.record({ name: 'Alpha', status: 'ONLINE', players: 1 });
    const mark = log.mark();
    assert.deepEqual(log.mergeSince(feed, mark), feed);
  });
});

describe('pushNeedsRefetch', () => {
  it('when the server is new to the feed or has just come ONLINE', () => {
    assert.equal(pushNeedsRefetch(feed, { name: 'Gamma', status: 'STARTING', players: 0 }), true);
    assert.equal(pushNeedsRefetch(feed, { name: 'Alpha', status: 'ONLINE', players: 0 }), true);
  });
  it('not for other changes', () => {
    assert.equal(pushNeedsRefetch(feed, { name: 'Alpha', status: 'STARTING', players: 0 }), false);
    assert.equal(pushNeedsRefetch(feed, { name: 'Beta', status: 'ONLINE', players: 9 }), false);
    assert.equal(pushNeedsRefetch(feed, { name: 'Beta', status: 'STOPPING', players: 0 }), false);
  });
});
