import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameCoalescer } from '../src/ws/frame-coalescer.ts';
import { manualTimers } from './support/manual-timers.ts';

const setup = (windowMs = 5, maxItems = 100) => {
  const clock = manualTimers();
  const frames: number[][] = [];
  const c = new FrameCoalescer<number>((items) => frames.push(items), { windowMs, maxItems, timers: clock.timers });
  return { clock, frames, c };
};

describe('FrameCoalescer', () => {
  it('sends the first item after quiet at the end of the turn, with what came in that turn', () => {
    const { clock, frames, c } = setup();
    c.push(1);
    c.push(2);
    assert.deepEqual(clock.scheduled(), [0], 'no window wait when quiet');
    assert.deepEqual(frames, []);
    clock.advance(0);
    assert.deepEqual(frames, [[1, 2]]);
  });

  it('under load sends at most one frame per window, in order', () => {
    const { clock, frames, c } = setup(5);
    c.push(1);
    clock.advance(0); // quiet: out at once
    clock.advance(1);
    c.push(2);
    assert.deepEqual(clock.scheduled(), [4], 'waits for the rest of the window');
    clock.advance(2);
    c.push(3);
    assert.deepEqual(frames, [[1]]);
    clock.advance(2);
    assert.deepEqual(frames, [[1], [2, 3]]);
    c.push(4);
    clock.advance(4);
    assert.deepEqual(frames, [[1], [2, 3]], 'still inside the window of the last frame');
    c.push(5);
    clock.advance(1);
    assert.deepEqual(frames, [[1], [2, 3], [4, 5]]);
  });

  it('goes back to immediate delivery once a window passes without a frame', () => {
    const { clock, frames, c } = setup(5);
    c.push(1);
    clock.advance(0);
    clock.advance(5);
    c.push(2);
    assert.deepEqual(clock.scheduled(), [0]);
    clock.advance(0);
    assert.deepEqual(frames, [[1], [2]]);
  });

  it('sends a full frame at once, and the rest when the window ends', () => {
    const { clock, frames, c } = setup(5, 3);
    c.push(0);
    clock.advance(0);
    for (let i = 1; i <= 7; i++) c.push(i);
    assert.deepEqual(frames, [[0], [1, 2, 3], [4, 5, 6]]);
    assert.equal(c.waiting, 1);
    clock.advance(5);
    assert.deepEqual(frames, [[0], [1, 2, 3], [4, 5, 6], [7]]);
    assert.deepEqual(clock.scheduled(), []);
  });

  it('loses, repeats and reorders nothing under a long irregular load', () => {
    const { clock, frames, c } = setup(5, 50);
    let next = 0;
    // A mix of bursts and pauses: bursts bigger than a frame, single items, gaps longer than the window.
    for (let step = 0; step < 2000; step++) {
      const burst = (step * 7919) % 120;
      for (let i = 0; i < burst; i++) c.push(next++);
      clock.advance((step * 104729) % 9);
    }
    clock.advance(10);
    const sent = frames.flat();
    assert.equal(sent.length, next);
    assert.deepEqual(
      sent,
      Array.from({ length: next }, (_, i) => i),
    );
    assert.ok(
      frames.every((f) => f.length > 0 && f.length <= 50),
      'no empty or oversized frame',
    );
  });

  it('flush sends what waits now; dispose drops it and the scheduled frame', () => {
    const { clock, frames, c } = setup();
    c.push(1);
    c.flush();
    assert.deepEqual(frames, [[1]]);
    assert.deepEqual(clock.scheduled(), []);
    c.push(2);
    c.dispose();
    clock.advance(10);
    assert.deepEqual(frames, [[1]]);
    assert.equal(c.waiting, 0);
  });
});
