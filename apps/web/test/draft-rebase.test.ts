import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, isVersionConflict } from '../src/lib/api-client.ts';
import { changedKeys, rebaseDraft } from '../src/lib/draft-rebase.ts';

const tile = (fg: number) => ({ fg, bg: 0, o: 0, l: 0, fl: 0, if_c: 0 });

describe('rebaseDraft (Reload after a 409)', () => {
  it('keeps a block placed in the game and the field the user changed', () => {
    const base = { version: 5, weather: 0, owner: 'Ann', blocks: [tile(0), tile(0), tile(0)] };
    const mine = { ...base, weather: 2, blocks: [tile(0), tile(0), tile(10)] };
    const theirs = { ...base, version: 8, blocks: [tile(2), tile(0), tile(0)], owner: 'Ben' };
    assert.deepEqual(rebaseDraft(base, mine, theirs), {
      simple: true,
      draft: { version: 8, weather: 2, owner: 'Ben', blocks: [tile(2), tile(0), tile(10)] },
    });
  });

  it('merges an inventory by item: the game took dirt, the user added a lock and removed a seed', () => {
    const base = {
      version: 1,
      inventory: [
        [2, 10],
        [3, 1],
        [5, 4],
      ] as [number, number][],
    };
    const mine = {
      ...base,
      inventory: [
        [2, 10],
        [5, 4],
        [242, 1],
      ] as [number, number][],
    };
    const theirs = {
      version: 4,
      inventory: [
        [2, 9],
        [3, 1],
        [5, 6],
      ] as [number, number][],
    };
    assert.deepEqual(rebaseDraft(base, mine, theirs), {
      simple: true,
      draft: {
        version: 4,
        inventory: [
          [2, 9],
          [5, 6],
          [242, 1],
        ],
      },
    });
  });

  it('the user changing a count keeps their count; the latest version is always the one sent', () => {
    const base = { version: 1, gems: 10, inventory: [[2, 10]] as [number, number][] };
    const mine = { ...base, version: 999, inventory: [[2, 50]] as [number, number][] };
    const theirs = { version: 3, gems: 40, inventory: [[2, 9]] as [number, number][] };
    assert.deepEqual(rebaseDraft(base, mine, theirs), {
      simple: true,
      draft: { version: 3, gems: 40, inventory: [[2, 50]] },
    });
  });

  it('is not simple when the tiles the user edited no longer line up (the size changed)', () => {
    const base = { version: 1, width: 2, blocks: [tile(0), tile(0)] };
    const mine = { ...base, blocks: [tile(0), tile(4)] };
    const theirs = { version: 2, width: 3, blocks: [tile(0), tile(0), tile(0)] };
    assert.deepEqual(rebaseDraft(base, mine, theirs), { simple: false });
    // Without edits to the tiles, it is simple: the latest tiles are taken as they are.
    assert.equal(rebaseDraft(base, base, theirs).simple, true);
  });

  it('changedKeys names what the user changed, never the version', () => {
    assert.deepEqual(changedKeys({ version: 1, a: 1, b: [1] }, { version: 2, a: 1, b: [2], c: true }), ['b', 'c']);
  });
});

describe('isVersionConflict', () => {
  it('is true only for the 409 whose code says the document changed', () => {
    assert.equal(isVersionConflict(new ApiError(409, 'Conflict', 'changed', 'version_conflict')), true);
    assert.equal(isVersionConflict(new ApiError(409, 'Conflict', 'offline', 'server_offline')), false);
    assert.equal(isVersionConflict(new ApiError(428, '', 'needs a version', 'version_required')), false);
    assert.equal(isVersionConflict(new Error('changed')), false);
  });
});
