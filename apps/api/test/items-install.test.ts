// The operator's item database: the install CLI and its refusals, and the configuration it reads.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createItem, encodeItemsDat } from '@canopy/formats';
import { detectPublicIp, loadConfig } from '../src/config.ts';
import { activeSource, bundledSource, operatorItemsDat } from '../src/items/item-database-dir.ts';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../../../scripts/items.ts', import.meta.url));
const bundledCache = bundledSource.cacheDir;

/** Runs `npm run items -- ...` with its own data directory; resolves with the exit code and output. */
async function items(dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, CANOPY_DATA_DIR: dataDir, CANOPY_ITEMS_DIR: '', NODE_ENV: 'test' },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** A source folder with a small items.dat and a copy of the bundled sheet under `name`. */
function source(textureName = 'ops.rttex') {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-items-src-'));
  const items = [0, 1].map((id) => createItem(id, { name: `Op ${id}`, texture: textureName }));
  writeFileSync(join(dir, 'items.dat'), encodeItemsDat({ version: 26, items }));
  mkdirSync(join(dir, 'cache'));
  copyFileSync(join(bundledCache, 'tiles_page1.rttex'), join(dir, 'cache', textureName));
  return dir;
}

test('install validates, switches `current` atomically, and engines are given the new items.dat', async () => {
  const data = mkdtempSync(join(tmpdir(), 'canopy-items-data-'));
  const itemsDir = join(data, 'item-database');
  assert.equal(activeSource(itemsDir), bundledSource);
  assert.equal(operatorItemsDat(itemsDir), undefined);

  const src = source();
  const first = await items(data, 'install', join(src, 'items.dat'), join(src, 'cache'));
  assert.equal(first.code, 0, first.out);
  assert.match(first.out, /items\.dat version 26, 2 items, 1 textures/);
  const active = activeSource(itemsDir);
  assert.notEqual(active, bundledSource);
  assert.equal(operatorItemsDat(itemsDir), active.itemsDat);
  assert.ok(existsSync(join(active.cacheDir, 'ops.rttex')));
  assert.match(readlinkSync(join(itemsDir, 'current')), /^versions\/\d{17}-[0-9a-f]{8}$/);

  // Two more installs: the current version and the one before it are kept, older ones pruned.
  await items(data, 'install', join(src, 'items.dat'), join(src, 'cache'));
  const third = await items(data, 'install', join(src, 'items.dat'), join(src, 'cache'));
  assert.equal(third.code, 0, third.out);
  assert.equal(readdirSync(join(itemsDir, 'versions')).length, 2);

  assert.match((await items(data, 'status')).out, /^installed \d{17}-/);
  assert.equal((await items(data, 'use-bundled')).code, 0);
  assert.equal(activeSource(itemsDir), bundledSource);
});

test('install refuses a bad items.dat, a bad texture and a bad texture name, and changes nothing', async () => {
  const data = mkdtempSync(join(tmpdir(), 'canopy-items-data-'));
  const itemsDir = join(data, 'item-database');
  const good = source();
  assert.equal((await items(data, 'install', join(good, 'items.dat'), join(good, 'cache'))).code, 0);
  const before = readlinkSync(join(itemsDir, 'current'));

  const badDat = source();
  writeFileSync(join(badDat, 'items.dat'), Buffer.from([26, 0, 5, 0, 0, 0, 1, 2, 3]));
  const truncated = await items(data, 'install', join(badDat, 'items.dat'), join(badDat, 'cache'));
  assert.equal(truncated.code, 1);
  assert.match(truncated.out, /^refused: items\.dat/m);

  const badTexture = source();
  writeFileSync(join(badTexture, 'cache', 'ops.rttex'), 'this is not a texture');
  const texture = await items(data, 'install', join(badTexture, 'items.dat'), join(badTexture, 'cache'));
  assert.equal(texture.code, 1);
  assert.match(texture.out, /^refused: ops\.rttex: RTTEX: wrong magic/m);

  const badName = source('custom_0123456789abcdef.rttex');
  const named = await items(data, 'install', join(badName, 'items.dat'), join(badName, 'cache'));
  assert.equal(named.code, 1);
  assert.match(named.out, /^refused: custom_0123456789abcdef\.rttex: texture names/m);

  const missing = await items(data, 'install', join(good, 'nothere.dat'), join(good, 'cache'));
  assert.equal(missing.code, 1);
  assert.match(missing.out, /^refused: items\.dat: not a file/m);

  assert.equal(readlinkSync(join(itemsDir, 'current')), before, 'the installed database is untouched');
  assert.equal(readdirSync(join(itemsDir, 'versions')).length, 1, 'no half-written version left behind');
  assert.equal((await items(data, 'check', join(good, 'items.dat'), join(good, 'cache'))).code, 0);
  assert.equal((await items(data, 'install')).code, 2, 'usage');
});

test('CANOPY_PUBLIC_IP takes an IPv4 address or a hostname; the default is detected', () => {
  const base = { NODE_ENV: 'test' as const, CANOPY_DATA_DIR: '/tmp/x' };
  assert.equal(loadConfig({ ...base, CANOPY_PUBLIC_IP: '203.0.113.7' }).publicIp, '203.0.113.7');
  assert.equal(loadConfig({ ...base, CANOPY_PUBLIC_IP: 'play.example.com' }).publicIp, 'play.example.com');
  assert.equal(loadConfig(base).publicIp, detectPublicIp());
  for (const bad of ['256.1.1.1', '1.2.3', 'http://x.com', 'a b', '-bad.com', '::1'])
    assert.throws(
      () => loadConfig({ ...base, CANOPY_PUBLIC_IP: bad }),
      /CANOPY_PUBLIC_IP: must be an IPv4 address or a hostname/,
      bad,
    );
  assert.equal(
    detectPublicIp({ lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true } as never] }),
    '127.0.0.1',
  );
  assert.equal(
    detectPublicIp({
      eth0: [
        { address: 'fe80::1', family: 'IPv6', internal: false } as never,
        { address: '10.1.2.3', family: 'IPv4', internal: false } as never,
      ],
    }),
    '10.1.2.3',
  );
  assert.equal(loadConfig(base).itemsDir, '/tmp/x/item-database');
  assert.equal(loadConfig({ ...base, CANOPY_ITEMS_DIR: '/srv/items' }).itemsDir, '/srv/items');
});
