import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LocalDriver } from '../src/runtime/local/local-driver.ts';
import { refreshStorage } from '../src/scheduler/server-time.ts';
import { STORAGE_BATCH } from '../src/scheduler/storage-figures.repo.ts';
import { serversRepo } from '../src/servers/servers.repo.ts';
import { ownerWithServer, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { serverFiles } from './support/server-files.ts';

const used = async (api: TestApi, id: string) =>
  Number((await api.ctx.db.get<{ b: number }>('SELECT storage_used_bytes AS b FROM users WHERE id = ?', [id]))?.b);

const serverId = async (api: TestApi, ownerId: string) =>
  (await api.ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [ownerId]))?.id;

const addBackup = (api: TestApi, ownerId: string, bytes: number) =>
  api.ctx.db.run('INSERT INTO backups (owner_id, created_at, bytes, sha256) VALUES (?, ?, ?, ?)', [
    ownerId,
    api.clock.now,
    bytes,
    'x',
  ]);

describeEachDatabase('scheduler storage pass, in batches', (api) => {
  it('writes each account its server data plus its backup, and a backup alone without a server; starts no engine for a measured offline server', async () => {
    const a = api();
    const tag = `${a.dialect[0]}${process.pid % 10000}`;
    const withBackup = await ownerWithServer(a, `StA${tag}`);
    const serverOnly = await ownerWithServer(a, `StB${tag}`);
    const untouched = await signInRegistered(a);
    await addBackup(a, withBackup.user.id, 7_000);
    // More accounts than one batch holds, backups without a server, each its own size.
    const extra = 2 * STORAGE_BATCH + 7;
    await a.ctx.db.transaction(async (tx) => {
      for (let k = 0; k < extra; k++) {
        await tx.run('INSERT INTO users (id, username, created_at, storage_used_bytes) VALUES (?, ?, ?, ?)', [
          `sb${tag}-${k}`,
          `sb${k}`,
          a.clock.now,
          k % 3 === 0 ? 1000 + k : 999_999,
        ]);
        await tx.run('INSERT INTO backups (owner_id, created_at, bytes, sha256) VALUES (?, ?, ?, ?)', [
          `sb${tag}-${k}`,
          a.clock.now,
          1000 + k,
          'x',
        ]);
      }
    });
    // One server stores 50 KB, written through its (files-only) engine, and was never measured: the pass asks it.
    // The other is new (recorded at 0 bytes) and offline: the pass counts its figure and starts no engine for it.
    const measuredId = (await serverId(a, serverOnly.user.id)) ?? '';
    const recordedId = (await serverId(a, withBackup.user.id)) ?? '';
    const files = await serverFiles(a, measuredId);
    await files.write('cache/bench.bin', Buffer.alloc(50_000));
    await a.ctx.db.run('UPDATE servers SET data_bytes = NULL WHERE id = ?', [measuredId]);
    for (const s of [withBackup, serverOnly, untouched])
      await a.ctx.db.run('UPDATE users SET storage_used_bytes = 123 WHERE id = ?', [s.user.id]);

    await refreshStorage(a.ctx);

    const local = a.ctx.servers.runtime as LocalDriver;
    assert.equal(local.filesOnlyPid(recordedId), null, 'no engine started to count a measured offline server');
    assert.equal(await used(a, withBackup.user.id), 7_000);
    const measured = (await files.usage()).bytes;
    assert.ok(measured >= 50_000, 'the file counts');
    assert.equal(await used(a, serverOnly.user.id), measured);
    assert.equal(await serversRepo.dataBytes(a.ctx.db, measuredId), measured, 'recorded for the next passes');
    assert.equal(await used(a, untouched.user.id), 123, 'an account with neither is left alone');
    const rows = await a.ctx.db.all<{ id: string; b: number }>(
      'SELECT id, storage_used_bytes AS b FROM users WHERE id LIKE ?',
      [`sb${tag}-%`],
    );
    assert.equal(rows.length, extra);
    for (const r of rows) assert.equal(Number(r.b), 1000 + Number(r.id.split('-')[1]), r.id);
  });
});
