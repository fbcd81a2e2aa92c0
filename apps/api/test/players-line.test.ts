import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { announcedPlayers } from '../src/runtime/local/players-line.ts';

describe('announcedPlayers', () => {
  it('reads the count of an engine INFO line', () => {
    assert.equal(announcedPlayers('2026-11-21T22:40:01.123Z [INFO] Players online: 12'), 12);
    assert.equal(announcedPlayers('2026-11-21T22:40:01.123Z [INFO] Players online: 0'), 0);
  });

  it('ignores other lines, other levels and look-alikes', () => {
    assert.equal(announcedPlayers('2026-11-21T22:40:01.123Z [INFO] Saved 3 worlds and 12 players'), null);
    assert.equal(announcedPlayers('2026-11-21T22:40:01.123Z [WARN] Players online: 3'), null);
    assert.equal(announcedPlayers('2026-11-21T22:40:01.123Z [INFO] Players online: 3 (said Bob)'), null);
    assert.equal(announcedPlayers('2026-11-21T22:40:01.123Z [INFO] > say Players online: 3'), null);
    assert.equal(announcedPlayers('garbage[INFO] Players online: 3'), null);
    assert.equal(announcedPlayers(''), null);
  });
});
