import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorldBlock } from '@canopy/contract';
import { generateWorld, seededRandom } from '../src/worlds/generate.ts';
import { blocksToColumns, columnsToBlocks, decodeTiles, encodeTiles } from '../src/worlds/tiles.ts';

describe('tile codec', () => {
  // `n`: a property stored before tiles were strict objects (issue 21): the codec still reads it back.
  it('round-trips blocks, including a label and extra properties stored earlier', () => {
    const blocks = [
      { fg: 2, bg: 14, o: 0, l: 0, fl: 0, if_c: 0 },
      { fg: 65535, bg: 0, o: 1, l: 1, fl: 0xffffffff, if_c: 0x7fffffff, label: 'hi', n: 3 },
      { fg: 242, bg: 14, o: 0, l: 1, fl: 8, if_c: 5 },
    ] as WorldBlock[];
    const back = columnsToBlocks(decodeTiles(encodeTiles(blocksToColumns(blocks))));
    assert.deepEqual(back, blocks);
  });

  it('stores a generated 100x60 world in a few kilobytes', () => {
    const world = generateWorld(seededRandom(1));
    const blob = encodeTiles(world);
    assert.ok(blob.length < 10_000, `blob is ${blob.length} bytes`);
    const back = decodeTiles(blob);
    assert.deepEqual(back.fg, world.fg);
    assert.deepEqual(back.bg, world.bg);
    assert.equal(back.count, 6000);
  });

  it('refuses a blob of an unknown format', () => {
    assert.throws(() => decodeTiles(new Uint8Array([9, 0, 0])), /Unknown tile format 9/);
  });
});
