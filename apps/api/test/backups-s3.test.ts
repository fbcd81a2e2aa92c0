import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { backupMessages as b, backupStatusSchema, hostingMessages as h } from '@canopy/contract';
import { backupStore } from '../src/backups/backup-store.ts';
import { ORPHAN_GRACE_MS, reconcileBackups } from '../src/backups/reconcile.ts';
import { damageUnseenByIntegrityCheck } from './support/damaged-backup.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { S3StandIn } from './support/s3-stand-in.ts';
import { serverFiles } from './support/server-files.ts';
import { sql, waitForStatus } from './support/servers.ts';

// The backup manager with its backups in an S3-compatible store (ADR 0037), over HTTP to a local stand-in that
// checks every request's SigV4 signature. The default directory store is backups.test.ts.

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const s3 = await new S3StandIn().start();
after(() => s3.stop());
const PREFIX = `run-${process.pid}`;

const call = (api: TestApi, s: Session, method: string, path: string, body?: unknown) =>
  api.request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
const localDir = (api: TestApi, ownerId: string) => join(api.ctx.config.dataDir, 'backups', ownerId);
const objectsOf = (ownerId: string) => s3.keys(`${PREFIX}/backups/${ownerId}/`);

async function setBpm(api: TestApi, s: Session, bpm: number) {
  const world = (await call(api, s, 'GET', '/worlds/START')).body;
  assert.equal((await call(api, s, 'PUT', '/worlds/START', { ...world, music_bpm: bpm })).status, 200);
}
const bpm = async (api: TestApi, s: Session) => (await call(api, s, 'GET', '/worlds/START')).body.music_bpm;
const rowOf = async (api: TestApi, ownerId: string) =>
  (
    await api.ctx.db.all<{ sha256: string; bytes: number }>('SELECT sha256, bytes FROM backups WHERE owner_id = ?', [
      ownerId,
    ])
  )[0];

describeEachDatabase(
  'backup manager on an S3 store',
  (api) => {
    let owner: Session;
    let server = '';
    let serverId = '';

    before(async () => {
      owner = await signInRegistered(api());
      server = `s3${api().dialect[0]}${process.pid % 1000}`;
      assert.equal((await call(api(), owner, 'POST', '', { serverName: server })).status, 201);
      assert.equal((await call(api(), owner, 'POST', `/${server}/start`)).status, 202);
      await waitForStatus(api(), server, 'ONLINE');
      const [row] = await api().ctx.db.all<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [
        owner.user.id,
      ]);
      serverId = row?.id ?? '';
      assert.equal(backupStore(api().ctx).kind, 's3');
    });

    it('a cut or failed upload keeps no backup: no row, no object, no local leftovers', async () => {
      await setBpm(api(), owner, 111);
      for (const fault of ['cut', 'error'] as const) {
        s3.faults.set('PUT', fault);
        try {
          const failed = await call(api(), owner, 'POST', '/backup');
          assert.equal(failed.status, 503, JSON.stringify(failed.body));
          assert.equal(failed.body.error, b.storeUnavailable);
        } finally {
          s3.faults.delete('PUT');
        }
        assert.equal(await rowOf(api(), owner.user.id), undefined, fault);
        assert.deepEqual(objectsOf(owner.user.id), [], fault);
        assert.deepEqual(
          existsSync(localDir(api(), owner.user.id)) ? readdirSync(localDir(api(), owner.user.id)) : [],
          [],
        );
      }
    });

    it('creates: the object holds the recorded bytes, nothing stays on disk, it counts in storage; one per account', async () => {
      const created = await call(api(), owner, 'POST', '/backup');
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const row = await rowOf(api(), owner.user.id);
      assert.ok(row);
      const keys = objectsOf(owner.user.id);
      assert.deepEqual(keys, [`${PREFIX}/backups/${owner.user.id}/${row.sha256}.db`]);
      const body = s3.objects.get(keys[0] ?? '')?.body ?? Buffer.alloc(0);
      assert.equal(body.length, Number(row.bytes));
      assert.equal(createHash('sha256').update(body).digest('hex'), row.sha256);
      assert.deepEqual(readdirSync(localDir(api(), owner.user.id)), [], 'no local copy');
      const status = backupStatusSchema.parse((await call(api(), owner, 'GET', '/backup')).body);
      assert.equal(status.bytes, Number(row.bytes));
      const [user] = await api().ctx.db.all<{ storage_used_bytes: number }>(
        'SELECT storage_used_bytes FROM users WHERE id = ?',
        [owner.user.id],
      );
      const serverBytes = (await (await serverFiles(api(), serverId)).usage()).bytes;
      assert.ok(Number(user?.storage_used_bytes) >= serverBytes + status.bytes - 65536, 'the backup counts');

      // A second create is refused before anything is uploaded, even with the store failing.
      s3.faults.set('PUT', 'cut');
      try {
        assert.equal((await call(api(), owner, 'POST', '/backup')).body.error, b.alreadyExists);
      } finally {
        s3.faults.delete('PUT');
      }
      assert.deepEqual(objectsOf(owner.user.id), keys);
      assert.deepEqual(await rowOf(api(), owner.user.id), row);
    });

    it('restores from the store (downloaded, verified, swapped); the scratch copy goes', async () => {
      await setBpm(api(), owner, 150);
      const restored = await call(api(), owner, 'POST', '/backup/restore');
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      await waitForStatus(api(), server, 'OFFLINE');
      assert.deepEqual(readdirSync(localDir(api(), owner.user.id)), []);
      assert.equal((await call(api(), owner, 'POST', `/${server}/start`)).status, 202);
      await waitForStatus(api(), server, 'ONLINE');
      assert.equal(await bpm(api(), owner), 111);
    });

    it('refuses a damaged or unreachable object and leaves the server running', async () => {
      await setBpm(api(), owner, 122);
      const [key = ''] = objectsOf(owner.user.id);
      const stored = s3.objects.get(key);
      assert.ok(stored);
      const original = stored.body;
      try {
        stored.body = damageUnseenByIntegrityCheck(original);
        assert.equal((await call(api(), owner, 'POST', '/backup/restore')).body.error, b.damagedChecksum);
        stored.body = Buffer.from('not a database at all');
        assert.equal((await call(api(), owner, 'POST', '/backup/restore')).body.error, b.damagedIntegrity);
        stored.body = original;
        s3.faults.set('GET', 'error');
        const unreachable = await call(api(), owner, 'POST', '/backup/restore');
        assert.equal(unreachable.status, 503);
        assert.equal(unreachable.body.error, b.storeUnavailable);
      } finally {
        stored.body = original;
        s3.faults.delete('GET');
      }
      assert.equal(api().ctx.servers.runtime.state(serverId).status, 'ONLINE');
      assert.equal(await bpm(api(), owner), 122);
      assert.deepEqual(readdirSync(localDir(api(), owner.user.id)), []);
    });

    it('counts the recorded bytes against the storage limit', async () => {
      const MB = 1024 * 1024;
      const row = await rowOf(api(), owner.user.id);
      await sql(api(), 'UPDATE users SET storage_limit_mb = 5 WHERE id = ?', [owner.user.id]);
      await sql(api(), 'UPDATE backups SET bytes = ? WHERE owner_id = ?', [10 * MB, owner.user.id]);
      try {
        const world = (await call(api(), owner, 'GET', '/worlds/START')).body;
        const refused = await call(api(), owner, 'PUT', '/worlds/START', world);
        assert.equal(refused.body.error, h.storageFullWrite);
      } finally {
        await sql(api(), 'UPDATE users SET storage_limit_mb = 256 WHERE id = ?', [owner.user.id]);
        await sql(api(), 'UPDATE backups SET bytes = ? WHERE owner_id = ?', [Number(row?.bytes ?? 0), owner.user.id]);
      }
    });

    it('reconcile removes old objects no row records, keeps young ones (another replica mid-create) and its own', async () => {
      const [kept = ''] = objectsOf(owner.user.id);
      const orphan = `${PREFIX}/backups/${owner.user.id}/${'a'.repeat(64)}.db`;
      const young = `${PREFIX}/backups/nobody/${'b'.repeat(64)}.db`;
      const old = new Date(Date.now() - ORPHAN_GRACE_MS - 60_000);
      s3.objects.set(orphan, { body: Buffer.from('x'), modified: old, metadata: {} });
      s3.objects.set(young, { body: Buffer.from('y'), modified: new Date(), metadata: {} });
      await reconcileBackups(api().ctx);
      assert.deepEqual(objectsOf(owner.user.id), [kept]);
      assert.ok(s3.objects.has(young));
      s3.objects.delete(young);
      assert.ok(await rowOf(api(), owner.user.id));
    });

    it('deletes the row and the object; a local backup from before the store changed is moved into it', async () => {
      const before = await rowOf(api(), owner.user.id);
      const [key = ''] = objectsOf(owner.user.id);
      const body = s3.objects.get(key)?.body ?? Buffer.alloc(0);
      assert.deepEqual((await call(api(), owner, 'DELETE', '/backup')).body, { message: b.deleted });
      assert.deepEqual(objectsOf(owner.user.id), []);
      assert.equal((await call(api(), owner, 'GET', '/backup')).body.exists, false);

      // As the directory store left it: backup.db and its row.
      mkdirSync(localDir(api(), owner.user.id), { recursive: true });
      writeFileSync(join(localDir(api(), owner.user.id), 'backup.db'), body);
      await sql(api(), 'INSERT INTO backups (owner_id, created_at, bytes, sha256) VALUES (?, ?, ?, ?)', [
        owner.user.id,
        Date.now(),
        Number(before?.bytes ?? 0),
        before?.sha256 ?? '',
      ]);
      await reconcileBackups(api().ctx);
      assert.deepEqual(objectsOf(owner.user.id), [key]);
      assert.ok(!existsSync(join(localDir(api(), owner.user.id), 'backup.db')));
      assert.equal((await call(api(), owner, 'POST', '/backup/restore')).status, 200);
      await waitForStatus(api(), server, 'OFFLINE');
      assert.ok(
        s3.log.every((r) => r.signed || r.method === 'PUT'),
        'every request signed (a cut PUT is not read)',
      );
    });
  },
  { ...s3.env(PREFIX) },
);
