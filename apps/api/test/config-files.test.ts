import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sweepUnusedTextures } from '../src/configuration/custom-texture.ts';
import type { ServerFiles } from '../src/runtime/server-files.ts';

it('removes uploaded textures no item uses, keeping used ones and other files', async () => {
  const used = 'custom_00000000000000aa.rttex';
  const unused = 'custom_00000000000000bb.rttex';
  const stored = new Set([used, unused, 'tiles_page1.rttex']);
  // The engine's texture cache as the file API shows it (runtime/server-files.ts).
  const files = {
    listTextures: async () => [...stored],
    remove: async (name: string) => stored.delete(name.replace(/^cache\//, '')),
  } as unknown as ServerFiles;
  const item = { texture: { file: used } } as Parameters<typeof sweepUnusedTextures>[1][number];
  await sweepUnusedTextures(files, [item]);
  assert.deepEqual([...stored].sort(), [used, 'tiles_page1.rttex']);
});
