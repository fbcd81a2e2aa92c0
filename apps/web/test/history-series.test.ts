import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fillSpans } from '../src/lib/history-series.ts';

describe('history series', () => {
  it('gives one value per span through the one under way, null where nothing was sampled', () => {
    const window = { from: 60_000, to: 4 * 60_000 + 30_000, stepMs: 60_000 };
    const points = [
      { at: 60_000, players: 3 },
      { at: 3 * 60_000, players: 5 },
    ];
    assert.deepEqual(
      fillSpans(points, window, (p) => p.players),
      [
        { at: 60_000, value: 3 },
        { at: 120_000, value: null },
        { at: 180_000, value: 5 },
        { at: 240_000, value: null },
      ],
    );
  });
});
