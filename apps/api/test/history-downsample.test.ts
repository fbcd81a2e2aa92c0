import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { historyRangeMs } from '@canopy/contract';
import {
  HOUR,
  MINUTE,
  maxRowsPerServer,
  pruneBefore,
  QUARTER,
  type Resolution,
  ROLLUP_GRACE_MS,
  rangeWindow,
  resolutions,
  rollUp,
  spansToRoll,
} from '../src/history/downsample.ts';

const t0 = Date.UTC(2026, 10, 27, 6, 0, 0);
const [minute, quarter, hour] = resolutions as readonly [Resolution, Resolution, Resolution];

describe('history downsampling', () => {
  it('rolls points up into spans: peak players and memory, CPU averaged by the samples that measured it', () => {
    const rolled = rollUp(
      [
        { at: t0, samples: 1, players: 2, cpu: 10, memory: 100 },
        { at: t0 + MINUTE, samples: 1, players: 5, cpu: null, memory: null },
        { at: t0 + 2 * MINUTE, samples: 2, players: 1, cpu: 40, memory: 300 },
        { at: t0 + QUARTER, samples: 1, players: 0, cpu: null, memory: null },
      ],
      QUARTER,
    );
    assert.deepEqual(rolled, [
      { at: t0, samples: 4, players: 5, cpu: 30, memory: 300 },
      { at: t0 + QUARTER, samples: 1, players: 0, cpu: null, memory: null },
    ]);
  });

  it('rolls a span once it ended and its grace passed, and every older one whose finer rows are still kept', () => {
    assert.deepEqual(spansToRoll(t0 + ROLLUP_GRACE_MS - 1, quarter)[0], t0 - 2 * QUARTER, 'within the grace');
    assert.equal(spansToRoll(t0 + ROLLUP_GRACE_MS, quarter)[0], t0 - QUARTER);
    const minuteKeep = minute.keepMs;
    for (const at of spansToRoll(t0 + ROLLUP_GRACE_MS, quarter)) {
      assert.ok(at >= t0 + ROLLUP_GRACE_MS - minuteKeep, 'every 1-minute row of the span is still kept');
      assert.ok(at + QUARTER <= t0, 'the span ended');
    }
    assert.ok(spansToRoll(t0 + ROLLUP_GRACE_MS, hour).length >= 23, 'a day of quarters can catch up hours');
    assert.deepEqual(spansToRoll(t0, minute), [], 'the finest resolution is sampled, not rolled');
  });

  it('keeps each resolution longer than its chart and bounds the rows per server', () => {
    for (const [range, r] of [
      ['hour', minute],
      ['day', quarter],
      ['week', hour],
    ] as const) {
      const { from, stepMs } = rangeWindow(range, t0 + 7 * MINUTE);
      assert.equal(stepMs, r.stepMs);
      assert.ok(pruneBefore(t0 + 7 * MINUTE, r) < from, `${range}: nothing the chart shows is pruned`);
      assert.ok(t0 + 7 * MINUTE - from <= historyRangeMs[range]);
    }
    assert.equal(maxRowsPerServer, 81 + 102 + 170);
    assert.ok(maxRowsPerServer < 400);
    assert.equal(rangeWindow('week', t0).from % HOUR, 0);
  });
});
