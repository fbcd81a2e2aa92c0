import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { customItemSchema, engineConfigFiles } from '@canopy/contract';
import { decodeItemsDat, protonHash } from '@canopy/formats';
import { encodeRtpack } from '@canopy/formats/node';
import { EFFECTIVE_ITEMS_DAT } from '../src/items/effective-items.ts';
import {
  killAll,
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  tempDataDir,
} from './support/engine-process.ts';
import { buildPlayer } from './support/factories.ts';

const BUILT = /\[INFO\] Built effective-items\.dat: (\d+) items \((\d+) custom\), \d+ bytes, hash (\d+)$/;

async function startAndBuild(dataDir: string): Promise<{ engine: RunningEngine; hash: number; count: number }> {
  const engine = await startEngine({ dataDir });
  const line = await engine.waitForLine(BUILT);
  const [, count, , hash] = BUILT.exec(line) ?? [];
  return { engine, hash: Number(hash), count: Number(count) };
}

describe('custom items in the engine items.dat', () => {
  const dataDir = tempDataDir();
  after(() => {
    killAll();
    removeDataDir(dataDir);
  });

  it('rebuilds items.dat with custom and texture items after a restart; the hash changes', async () => {
    const first = await startAndBuild(dataDir);
    const baseFile = readFileSync(join(dataDir, EFFECTIVE_ITEMS_DAT));
    assert.equal(protonHash(baseFile), first.hash, 'the logged hash is that of the written file');
    assert.equal((await first.engine.request('GET', '/stats')).body.itemsDatHash, first.hash);
    const base = decodeItemsDat(new Uint8Array(baseFile));
    assert.equal(base.items.length, first.count);
    await stopEngine(first.engine);

    const texture = encodeRtpack({ width: 32, height: 32, rgba: new Uint8Array(32 * 32 * 4).fill(200) });
    const file = 'custom_0123456789abcdef.rttex';
    mkdirSync(join(dataDir, 'cache'), { recursive: true });
    writeFileSync(join(dataDir, 'cache', file), texture);
    const newId = first.count + 2; // leaves one id as a gap
    const items = [
      customItemSchema.parse({ ID: 2, Name: 'Renamed Dirt', Desc: 'Changed.', rarity: 7 }),
      customItemSchema.parse({ ID: newId, Name: 'Glow Block', rarity: 999, texture: { file, break_hits: 4 } }),
    ];
    writeFileSync(join(dataDir, engineConfigFiles.customItems), JSON.stringify({ items }));

    const second = await startAndBuild(dataDir);
    try {
      assert.notEqual(second.hash, first.hash, 'the hash changed');
      assert.equal(second.count, newId + 1, 'ids stay sequential: a placeholder fills the gap');
      const dat = decodeItemsDat(new Uint8Array(readFileSync(join(dataDir, EFFECTIVE_ITEMS_DAT))));
      assert.deepEqual(
        dat.items.map((i) => i.id),
        dat.items.map((_, index) => index),
      );
      const dirt = dat.items[2];
      assert.equal(dirt?.name, 'Renamed Dirt');
      assert.equal(dirt?.rarity, 7);
      assert.equal(dirt?.texture, base.items[2]?.texture, 'an override keeps the base texture');
      const glow = dat.items[newId];
      assert.equal(glow?.name, 'Glow Block');
      assert.equal(glow?.texture, file);
      assert.equal(glow?.textureHash, protonHash(texture));
      assert.equal(glow?.collisionType, 1);
      assert.equal(glow?.clothingType, 6);
      assert.equal(glow?.breakHits, 4);
      assert.equal(dat.items[newId - 1]?.name, `Unused ${newId - 1}`);

      // The catalog knows the custom item by name.
      assert.equal((await second.engine.request('PUT', '/players/Grower', buildPlayer())).status, 201);
      second.engine.type('give Grower Glow Block 3');
      assert.match(await second.engine.waitForLine(/Gave|No item/), new RegExp(`Gave 3 Glow Block \\(id ${newId}\\)`));
      second.engine.type('status');
      assert.match(await second.engine.waitForLine(/items\.dat \d+ items hash/), new RegExp(`hash ${second.hash}`));
    } finally {
      await stopEngine(second.engine);
    }
  });
});
