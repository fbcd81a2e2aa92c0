import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { ENGINE_LOG_LINE, ENGINE_PLAYERS_MESSAGE } from '@canopy/contract/engine';
import { Logger } from '../src/log.ts';
import { announcePlayers } from '../src/net/players-line.ts';

/** A game network whose players the test moves, and the lines the engine printed. */
function setup() {
  const printed: string[] = [];
  const log = new Logger({ sink: (text) => printed.push(text.trimEnd()) });
  let online: string[] = [];
  let changed = () => {};
  announcePlayers({ onlinePlayers: () => online, onPlayersChanged: (l) => (changed = l) }, log, 20);
  const set = (names: string[]) => {
    online = names;
    changed();
  };
  const counts = () => printed.map((l) => ENGINE_PLAYERS_MESSAGE.exec(ENGINE_LOG_LINE.exec(l)?.[3] ?? '')?.[1]);
  return { set, counts };
}

describe('players line', () => {
  // Mocked timers: the 20 ms delay passes when the test says, never with the machine's load.
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('prints a burst of changes once, with the latest count', () => {
    const { set, counts } = setup();
    set(['A']);
    set(['A', 'B']);
    set(['A', 'B', 'C']);
    assert.deepEqual(counts(), []);
    mock.timers.tick(20);
    assert.deepEqual(counts(), ['3']);
    set(['A']);
    mock.timers.tick(20);
    assert.deepEqual(counts(), ['3', '1']);
  });

  it('prints nothing when the count ends where it was', () => {
    const { set, counts } = setup();
    set(['A']);
    set([]);
    mock.timers.tick(20);
    assert.deepEqual(counts(), []);
  });
});
