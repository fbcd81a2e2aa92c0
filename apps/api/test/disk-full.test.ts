import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hostingMessages as m } from '@canopy/contract';
import { buildDiscordUser, signInRegistered } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

// A real full disk: the api's data directory (platform database and engines) on a small tmpfs. Mounting
// needs root; elsewhere the capped-database tests (storage-limit.test.ts, engine disk-full.test.ts) cover it.
const mountPoint = mkdtempSync(join(tmpdir(), 'canopy-full-disk-'));
const mounted = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=12m,mode=0700', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A 200x200 world of random tiles: it does not compress, so each save takes real room. */
function noisyWorld(world: Record<string, unknown>) {
  const side = 200;
  const random = () => Math.floor(Math.random() * 60000);
  const blocks = Array.from({ length: side * side }, () => ({
    fg: random(),
    bg: random(),
    o: 0,
    l: 0,
    fl: 0,
    if_c: 0,
  }));
  return { ...world, name: undefined, id: undefined, version: undefined, width: side, height: side, blocks };
}

describe('a full disk under the api and its engine', { skip: !mounted && 'needs root to mount a tmpfs' }, () => {
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite', { CANOPY_DATA_DIR: join(mountPoint, 'data') });
  });
  after(async () => {
    await api?.close();
    if (mounted) execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('answers 507, never 500 and never "saved" for what was not, and works again once there is room', async () => {
    const owner = await signInRegistered(api);
    const call = (method: string, path: string, body?: unknown) =>
      api.request(method, `/users/${owner.user.id}/server${path}`, { token: owner.sessionToken, body });
    const name = `disk${process.pid % 1000}`;
    await call('POST', '', { serverName: name });
    await sql(api, 'UPDATE users SET storage_limit_mb = 100000 WHERE id = ?', [owner.user.id]);
    assert.equal((await call('POST', `/${name}/start`)).status, 202);
    await waitForStatus(api, name, 'ONLINE');
    // Room that can be given back at the end, as an operator would by freeing space.
    writeFileSync(join(mountPoint, 'reserve.bin'), Buffer.alloc(4 * 1024 * 1024, 1));

    const template = (await call('GET', '/worlds/START')).body;
    const saved: string[] = [];
    let refused: { status: number; body: { error: string; code: string } } | undefined;
    for (let i = 0; i < 80 && !refused; i++) {
      const res = await call('PUT', `/worlds/FILL${i}`, noisyWorld(template));
      if (res.status === 200) saved.push(`FILL${i}`);
      else refused = { ...res, name: `FILL${i}` } as typeof refused & { name: string };
    }
    assert.ok(refused, 'the disk filled up');
    assert.equal(refused.status, 507, JSON.stringify(refused.body));
    assert.equal(refused.body.error, m.diskFull);
    const failed = (refused as unknown as { name: string }).name;
    assert.equal((await call('GET', `/worlds/${failed}`)).status, 404, 'the refused world was not half-saved');
    for (const world of saved) assert.equal((await call('GET', `/worlds/${world}`)).status, 200, world);

    // The tenant stopped short of the host's reserve: the platform itself still has room to sign people in.
    const { accessToken } = buildDiscordUser(api);
    const login = await api.request('POST', '/auth/login', { body: { accessToken } });
    assert.equal(login.status, 200, `login answered ${login.status} ${JSON.stringify(login.body)}`);
    // A restart either comes back (the reserve left it room) or is refused while the server keeps running.
    const restart = await call('POST', `/${name}/restart`);
    assert.ok([202, 507].includes(restart.status), JSON.stringify(restart.body));
    await waitForStatus(api, name, 'ONLINE');

    // A power action either goes ahead and says so, or is refused and nothing happens.
    const stopOnFull = await call('POST', `/${name}/stop`);
    assert.ok([202, 507].includes(stopOnFull.status), `stop answered ${stopOnFull.status}`);
    const feed = (await api.request('GET', '/status')).body.hostedServers;
    const shown = feed.find((s: { name: string }) => s.name === name)?.status;
    if (stopOnFull.status === 507) assert.equal(shown, 'ONLINE', 'a refused stop left the server running');

    rmSync(join(mountPoint, 'reserve.bin'));
    if (stopOnFull.status === 202) {
      await waitForStatus(api, name, 'OFFLINE');
      assert.equal((await call('POST', `/${name}/start`)).status, 202);
      await waitForStatus(api, name, 'ONLINE');
    }
    const again = await call('PUT', '/worlds/AFTER', {
      ...template,
      name: undefined,
      id: undefined,
      version: undefined,
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal((await call('POST', `/${name}/stop`)).status, 202);
    await waitForStatus(api, name, 'OFFLINE');
  });
});
