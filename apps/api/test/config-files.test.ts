import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { sweepUnfinishedWrites } from '../src/configuration/config-files.ts';
import { sweepUnusedTextures } from '../src/configuration/custom-texture.ts';

it('at start, removes the temporary files of writes a killed api never renamed, and nothing else', async () => {
  const root = mkdtempSync(join(tmpdir(), 'canopy-sweep-'));
  try {
    const server = join(root, 'srv1');
    mkdirSync(join(server, 'cache'), { recursive: true });
    const keep = ['creators.json', 'engine.db', 'notes.tmp', 'creators.json.zz.tmp'];
    for (const name of [...keep, 'creators.json.0123456789ab.tmp']) writeFileSync(join(server, name), 'x');
    writeFileSync(join(server, 'cache', 'custom_0123456789abcdef.rttex.a1b2c3d4e5f6.tmp'), 'x');
    await sweepUnfinishedWrites(root);
    assert.deepEqual(readdirSync(server).sort(), [...keep, 'cache'].sort());
    assert.deepEqual(readdirSync(join(server, 'cache')), []);
    await sweepUnfinishedWrites(join(root, 'missing')); // no servers folder yet: nothing to do
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it('removes uploaded textures no item uses, keeping used ones and other files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-textures-'));
  try {
    mkdirSync(join(dir, 'cache'));
    const used = 'custom_00000000000000aa.rttex';
    const unused = 'custom_00000000000000bb.rttex';
    for (const name of [used, unused, 'tiles_page1.rttex']) writeFileSync(join(dir, 'cache', name), 'x');
    const item = { texture: { file: used } } as Parameters<typeof sweepUnusedTextures>[1][number];
    await sweepUnusedTextures(dir, [item]);
    assert.deepEqual(readdirSync(join(dir, 'cache')).sort(), [used, 'tiles_page1.rttex']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
