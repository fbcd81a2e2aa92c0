import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { refreshStorage } from '../src/scheduler/server-time.ts';
import { STORAGE_BATCH } from '../src/scheduler/storage-figures.repo.ts';
import { ownerWithServer, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';

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
  it('writes each account its server data plus its backup, and a backup alone without a server', async () => {
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
    // Data on disk in one server's directory, so the figure is the directory's size and not just zero.
    const dir = a.ctx.servers.runtime.dataDir((await serverId(a, serverOnly.user.id)) ?? '');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'bench.bin'), Buffer.alloc(50_000));
    for (const s of [withBackup, serverOnly, untouched])
      await a.ctx.db.run('UPDATE users SET storage_used_bytes = 123 WHERE id = ?', [s.user.id]);

    await refreshStorage(a.ctx);

    const serverBytes = async (ownerId: string) =>
      a.ctx.servers.runtime.storageBytes((await serverId(a, ownerId)) ?? '');
    assert.equal(await used(a, withBackup.user.id), (await serverBytes(withBackup.user.id)) + 7_000);
    assert.equal(await used(a, serverOnly.user.id), await serverBytes(serverOnly.user.id));
    assert.ok((await serverBytes(serverOnly.user.id)) >= 50_000, 'the file counts');
    assert.equal(await used(a, untouched.user.id), 123, 'an account with neither is left alone');
    const rows = await a.ctx.db.all<{ id: string; b: number }>(
      'SELECT id, storage_used_bytes AS b FROM users WHERE id LIKE ?',
      [`sb${tag}-%`],
    );
    assert.equal(rows.length, extra);
    for (const r of rows) assert.equal(Number(r.b), 1000 + Number(r.id.split('-')[1]), r.id);
  });
});
