import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { S3BackupStore } from '../src/backups/s3-backup-store.ts';
import type { S3BackupConfig } from '../src/config/backup-store.ts';
import { loadConfig } from '../src/config.ts';
import { S3StandIn } from './support/s3-stand-in.ts';

// The S3 store against the local stand-in over HTTP, signed with the SDK's SigV4 (backups-s3.test.ts runs the
// backup manager on it end to end).

const dir = mkdtempSync(join(tmpdir(), 'canopy-s3-store-'));
const fileOf = (name: string, content: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { path, ref: { owner_id: 'owner1', sha256: createHash('sha256').update(content).digest('hex') } };
};
const configOf = (s3: S3StandIn, env: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: 'test', CANOPY_DATA_DIR: dir, ...s3.env('tenant-a'), ...env }).backupStore as S3BackupConfig;

describe('S3 backup store', () => {
  let s3: S3StandIn;
  let store: S3BackupStore;
  before(async () => {
    s3 = await new S3StandIn().start();
    store = new S3BackupStore(configOf(s3));
  });
  after(async () => {
    store.close();
    await s3.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts, stats, lists, fetches and deletes under <prefix>backups/<owner>/<sha256>.db, every request signed', async () => {
    const a = fileOf('a.db', Buffer.alloc(300_000, 1));
    await store.put(a.ref, a.path, 300_000);
    assert.deepEqual(s3.keys(), [`tenant-a/backups/owner1/${a.ref.sha256}.db`]);
    assert.equal(s3.objects.get(store.keyOf(a.ref))?.metadata.sha256, a.ref.sha256);
    assert.deepEqual(await store.stat(a.ref), { bytes: 300_000 });
    const listed = await store.list();
    assert.deepEqual(
      listed.map(({ ownerId, sha256, bytes }) => ({ ownerId, sha256, bytes })),
      [{ ownerId: 'owner1', sha256: a.ref.sha256, bytes: 300_000 }],
    );
    const scratch = join(dir, 'scratch');
    assert.equal(await store.localCopy(a.ref, scratch), scratch);
    assert.ok(readFileSync(scratch).equals(Buffer.alloc(300_000, 1)));
    await store.delete(a.ref);
    assert.equal(await store.stat(a.ref), null);
    assert.equal(await store.localCopy(a.ref, join(dir, 'none')), null);
    assert.ok(s3.log.length >= 6 && s3.log.every((r) => r.signed), JSON.stringify(s3.log));
  });

  it('is refused by the store with another secret (the stand-in checks the signature)', async () => {
    const wrong = new S3BackupStore({
      ...configOf(s3),
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: 'x'.repeat(30) },
    });
    const a = fileOf('w.db', Buffer.from('wrong'));
    await assert.rejects(wrong.put(a.ref, a.path, 5), { code: 'backup_store_unavailable', status: 503 });
    assert.deepEqual(s3.keys(), []);
    wrong.close();
  });

  it('a failed or cut upload leaves the stored backup as it was', async () => {
    const a = fileOf('a.db', Buffer.alloc(200_000, 2));
    await store.put(a.ref, a.path, 200_000);
    const b = fileOf('b.db', Buffer.alloc(400_000, 3));
    for (const fault of ['cut', 'error'] as const) {
      s3.faults.set('PUT', fault);
      try {
        await assert.rejects(store.put(b.ref, b.path, 400_000), { code: 'backup_store_unavailable' });
      } finally {
        s3.faults.delete('PUT');
      }
      assert.deepEqual(s3.keys(), [store.keyOf(a.ref)], fault);
      assert.ok(readFileSync(join(dir, 'a.db')).equals(s3.objects.get(store.keyOf(a.ref))?.body ?? Buffer.alloc(0)));
    }
    s3.faults.set('GET', 'error');
    try {
      await assert.rejects(store.localCopy(a.ref, join(dir, 'g')), { code: 'backup_store_unavailable' });
    } finally {
      s3.faults.delete('GET');
    }
    await store.delete(a.ref);
  });

  it('needs its bucket, credentials and a region or endpoint; S3 variables without a bucket are refused', () => {
    assert.equal(loadConfig({ NODE_ENV: 'test' }).backupStore.kind, 'directory');
    assert.throws(
      () => loadConfig({ NODE_ENV: 'test', CANOPY_BACKUP_S3_BUCKET: 'canopy' }),
      /AWS_ACCESS_KEY_ID: is required[\s\S]*AWS_SECRET_ACCESS_KEY: is required[\s\S]*CANOPY_BACKUP_S3_REGION: is required/,
    );
    assert.throws(
      () => loadConfig({ NODE_ENV: 'test', CANOPY_BACKUP_S3_ENDPOINT: 'http://127.0.0.1:9000' }),
      /CANOPY_BACKUP_S3_ENDPOINT: needs CANOPY_BACKUP_S3_BUCKET/,
    );
    assert.throws(() => loadConfig({ NODE_ENV: 'test', CANOPY_BACKUP_S3_BUCKET: 'No_Such' }), /bucket name/);
    const config = configOf(s3, { CANOPY_BACKUP_S3_PREFIX: '/a/b' });
    assert.equal(config.prefix, 'a/b/');
    assert.equal(config.forcePathStyle, true);
  });
});
