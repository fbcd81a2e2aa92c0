import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hostingMessages as m } from '@canopy/contract';
import { signInRegistered } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

// The backups folder on its own small volume (a 64 KB tmpfs) under a data directory with room: the
// quota checks pass and the disk fills up in the middle of writing the snapshot the engine streams to the api,
// online (the running engine's) and offline (a files-only engine's). Mounting needs root.
const dataDir = mkdtempSync(join(tmpdir(), 'canopy-backup-full-'));
const mountPoint = join(dataDir, 'backups');
mkdirSync(mountPoint, { mode: 0o700 });
const mounted = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A 200x200 world of random tiles: it does not compress, so the database grows well past the volume. */
function noisyWorld(world: Record<string, unknown>) {
  const random = () => Math.floor(Math.random() * 60000);
  const blocks = Array.from({ length: 200 * 200 }, () => ({ fg: random(), bg: random(), o: 0, l: 0, fl: 0, if_c: 0 }));
  return { ...world, name: undefined, id: undefined, version: undefined, width: 200, height: 200, blocks }; // a new world
}

describe('a full disk while a backup is written', { skip: !mounted && 'needs root to mount a tmpfs' }, () => {
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite', { CANOPY_DATA_DIR: dataDir });
  });
  after(async () => {
    await api?.close().catch(() => {});
    if (mounted) execFileSync('umount', [mountPoint]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 507 and leaves nothing half-written, online and offline', async () => {
    const owner = await signInRegistered(api);
    const call = (method: string, path: string, body?: unknown) =>
      api.request(method, `/users/${owner.user.id}/server${path}`, { token: owner.sessionToken, body });
    const name = `full${process.pid % 1000}`;
    assert.equal((await call('POST', '', { serverName: name })).status, 201);
    assert.equal((await call('POST', `/${name}/start`)).status, 202);
    await waitForStatus(api, name, 'ONLINE');
    const template = (await call('GET', '/worlds/START')).body;
    assert.equal((await call('PUT', '/worlds/NOISE', noisyWorld(template))).status, 200);

    const leftovers = () => readdirSync(mountPoint, { recursive: true }).filter((f) => !String(f).match(/^[^/]+$/));
    for (const state of ['online', 'offline']) {
      const res = await call('POST', '/backup');
      assert.equal(res.status, 507, `${state}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error, m.diskFull);
      assert.deepEqual(leftovers(), [], `${state}: no partial file`);
      assert.equal((await call('GET', '/backup')).body.exists, false);
      if (state === 'online') {
        assert.equal((await call('GET', '/worlds/NOISE')).status, 200, 'the live database is untouched');
        assert.equal((await call('POST', `/${name}/stop`)).status, 202);
        await waitForStatus(api, name, 'OFFLINE');
      }
    }
    assert.equal((await call('POST', `/${name}/start`)).status, 202);
    await waitForStatus(api, name, 'ONLINE');
    assert.equal((await call('GET', '/worlds/NOISE')).status, 200, 'the live database is intact');
  });
});
