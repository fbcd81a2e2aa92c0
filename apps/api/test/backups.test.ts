import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, it } from 'node:test';
import {
  backupMessages as b,
  backupStatusSchema,
  hostingMessages as h,
  messages,
  serverPageMessages as p,
} from '@canopy/contract';
import { damageUnseenByIntegrityCheck } from './support/damaged-backup.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { serverFiles } from './support/server-files.ts';
import { sql, waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const call = (api: TestApi, s: Session, method: string, path: string, body?: unknown) =>
  api.request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
const backupPath = (api: TestApi, ownerId: string) => join(api.ctx.config.dataDir, 'backups', ownerId, 'backup.db');

/** Sets the START world's music_bpm (the marker these tests restore). */
async function setBpm(api: TestApi, s: Session, bpm: number) {
  const world = (await call(api, s, 'GET', '/worlds/START')).body;
  assert.equal((await call(api, s, 'PUT', '/worlds/START', { ...world, music_bpm: bpm })).status, 200);
}
const bpm = async (api: TestApi, s: Session) => (await call(api, s, 'GET', '/worlds/START')).body.music_bpm;

async function startAndWait(api: TestApi, s: Session, server: string) {
  assert.equal((await call(api, s, 'POST', `/${server}/start`)).status, 202);
  await waitForStatus(api, server, 'ONLINE');
}

describeEachDatabase('backup manager', (api) => {
  let owner: Session;
  let server = '';

  before(async () => {
    owner = await signInRegistered(api());
    server = `bk${api().dialect[0]}${process.pid % 1000}`;
    assert.equal((await call(api(), owner, 'POST', '', { serverName: server })).status, 201);
  });

  it('has no backup at first, and a server that never ran has no database to back up', async () => {
    const status = await call(api(), owner, 'GET', '/backup');
    assert.equal(status.status, 200);
    assert.deepEqual(backupStatusSchema.parse(status.body), { exists: false, createdAt: null, bytes: 0 });
    const refused = await call(api(), owner, 'POST', '/backup');
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, b.noDatabase);
    assert.equal((await call(api(), owner, 'POST', '/backup/restore')).body.error, b.notFound);
    assert.equal((await call(api(), owner, 'DELETE', '/backup')).body.error, b.notFound);
  });

  it('creates an online backup (0600, counted in storage, logged) and refuses a second one', async () => {
    await startAndWait(api(), owner, server);
    await setBpm(api(), owner, 111);
    const created = await call(api(), owner, 'POST', '/backup');
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body, { message: b.created });
    const status = backupStatusSchema.parse((await call(api(), owner, 'GET', '/backup')).body);
    assert.equal(status.exists, true);
    assert.ok(Math.abs(Date.parse(status.createdAt ?? '') - api().clock.now) < 1000);
    const file = backupPath(api(), owner.user.id);
    assert.equal(statSync(file).size, status.bytes);
    assert.equal(statSync(file).mode & 0o777, 0o600);

    const again = await call(api(), owner, 'POST', '/backup');
    assert.equal(again.status, 409);
    assert.equal(again.body.error, b.alreadyExists);

    const [row] = await api().ctx.db.all<{ storage_used_bytes: number }>(
      'SELECT storage_used_bytes FROM users WHERE id = ?',
      [owner.user.id],
    );
    const serverBytes = (await (await serverFiles(api(), (await serverId(api(), owner)) ?? '')).usage()).bytes;
    assert.ok(Number(row?.storage_used_bytes) >= serverBytes + status.bytes - 65536, 'the backup counts');
    const log = await api().ctx.db.all<{ action: string }>(
      "SELECT action FROM activity_logs WHERE action LIKE 'Backup%'",
    );
    assert.deepEqual(
      log.map((r) => r.action),
      ['Backup created'],
    );
  });

  it('restores while online: stops the server, swaps the database, leaves it stopped', async () => {
    await setBpm(api(), owner, 150);
    const restored = await call(api(), owner, 'POST', '/backup/restore');
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.deepEqual(restored.body, { message: b.restored });
    await waitForStatus(api(), server, 'OFFLINE');
    // The engine holds the backup's very bytes now, and no write-ahead log beside them.
    const { bytes } = backupStatusSchema.parse((await call(api(), owner, 'GET', '/backup')).body);
    const usage = await (await serverFiles(api(), (await serverId(api(), owner)) ?? '')).usage();
    assert.equal(usage.databaseBytes, bytes);
    await startAndWait(api(), owner, server);
    assert.equal(await bpm(api(), owner), 111, 'the world as it was in the backup');
  });

  it('refuses a damaged backup with its reason and leaves the live database and the server alone', async () => {
    await setBpm(api(), owner, 122);
    const file = backupPath(api(), owner.user.id);
    const original = readFileSync(file);
    writeFileSync(file, damageUnseenByIntegrityCheck(original));
    const refused = await call(api(), owner, 'POST', '/backup/restore');
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error, b.damagedChecksum);
    assert.equal(api().ctx.servers.runtime.state((await serverId(api(), owner)) ?? '').status, 'ONLINE');
    assert.equal(await bpm(api(), owner), 122);
    writeFileSync(file, Buffer.from('not a database at all'));
    assert.equal((await call(api(), owner, 'POST', '/backup/restore')).body.error, b.damagedIntegrity);
    writeFileSync(file, original);
  });

  it('deletes, then two creates at once give one backup and one refusal; offline create works', async () => {
    const deleted = await call(api(), owner, 'DELETE', '/backup');
    assert.deepEqual(deleted.body, { message: b.deleted });
    assert.ok(!existsSync(backupPath(api(), owner.user.id)));
    assert.equal((await call(api(), owner, 'GET', '/backup')).body.exists, false);

    // The first create is held inside the engine's snapshot until the second has its answer, so the second
    // meets it at work however the two requests are scheduled (one create per account at a time).
    const control = api().ctx.servers.runtime.control((await serverId(api(), owner)) ?? '');
    assert.ok(control);
    const send = control.send;
    let inEngine = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    control.send = function (this: typeof control, ...args: Parameters<typeof send>) {
      // Only the first is held: a second one let through to the engine must not wait for the first.
      if (args[1] !== '/snapshot' || inEngine) return send.apply(this, args);
      inEngine = true;
      return held.then(() => send.apply(this, args));
    } as typeof send;
    const both: { status: number; body: { error?: string } }[] = [];
    try {
      const first = call(api(), owner, 'POST', '/backup');
      for (let i = 0; !inEngine; i++) {
        assert.ok(i < 6000, 'the first create never reached the engine');
        await new Promise((r) => setTimeout(r, 10));
      }
      both.push(await call(api(), owner, 'POST', '/backup'));
      release();
      both.push(await first);
    } finally {
      release();
      control.send = send;
    }
    assert.deepEqual(
      both.map((r) => r.status),
      [409, 200],
      JSON.stringify(both.map((r) => r.body)),
    );
    // The loser finds the winner still at work.
    assert.equal(both[0]?.body.error, b.busy);
    const rows = await api().ctx.db.all('SELECT owner_id FROM backups WHERE owner_id = ?', [owner.user.id]);
    assert.equal(rows.length, 1);
    assert.equal((await call(api(), owner, 'POST', '/backup/restore')).status, 200, 'the winner is a good backup');

    // Offline now (the restore left it stopped): a copy made by a files-only engine.
    assert.equal((await call(api(), owner, 'DELETE', '/backup')).status, 200);
    assert.equal((await call(api(), owner, 'POST', '/backup')).status, 200);
    assert.equal((await call(api(), owner, 'POST', '/backup/restore')).status, 200);
    await startAndWait(api(), owner, server);
    assert.equal(await bpm(api(), owner), 122);
  });

  it('belongs to the account: kept when the server is deleted, restorable into a new one', async () => {
    const before = backupStatusSchema.parse((await call(api(), owner, 'GET', '/backup')).body);
    assert.equal((await call(api(), owner, 'DELETE', '')).status, 200);
    const none = await call(api(), owner, 'GET', '/backup');
    assert.equal(none.status, 404);
    assert.equal(none.body.error, p.noServer);
    const [row] = await api().ctx.db.all<{ storage_used_bytes: number }>(
      'SELECT storage_used_bytes FROM users WHERE id = ?',
      [owner.user.id],
    );
    assert.equal(Number(row?.storage_used_bytes), before.bytes, 'the backup still counts without a server');

    const fresh = `${server}n`;
    assert.equal((await call(api(), owner, 'POST', '', { serverName: fresh })).status, 201);
    assert.deepEqual((await call(api(), owner, 'GET', '/backup')).body, before);
    // The new server has no database yet, so a restore grows the account by the whole backup: it must fit.
    const [limit] = await api().ctx.db.all<{ storage_limit_mb: number }>(
      'SELECT storage_limit_mb FROM users WHERE id = ?',
      [owner.user.id],
    );
    await sql(api(), 'UPDATE users SET storage_limit_mb = 0 WHERE id = ?', [owner.user.id]);
    try {
      const full = await call(api(), owner, 'POST', '/backup/restore');
      assert.equal(full.status, 409, JSON.stringify(full.body));
      assert.equal(full.body.code, 'storage_full');
      const usage = await (await serverFiles(api(), (await serverId(api(), owner)) ?? '')).usage();
      assert.equal(usage.databaseBytes, 0, 'nothing restored');
    } finally {
      await sql(api(), 'UPDATE users SET storage_limit_mb = ? WHERE id = ?', [
        Number(limit?.storage_limit_mb ?? 256),
        owner.user.id,
      ]);
    }
    assert.equal((await call(api(), owner, 'POST', '/backup/restore')).status, 200);
    await startAndWait(api(), owner, fresh);
    assert.equal(await bpm(api(), owner), 122, "the old server's world on the new server");
    server = fresh;
  });

  it('restores over a live database too damaged to open (its WAL set aside, then dropped)', async () => {
    await setBpm(api(), owner, 133);
    assert.equal((await call(api(), owner, 'POST', `/${server}/stop`)).status, 202);
    await waitForStatus(api(), server, 'OFFLINE');
    const live = liveDb(api(), (await serverId(api(), owner)) ?? '');
    writeFileSync(live, Buffer.alloc(8192, 7));
    writeFileSync(`${live}-wal`, Buffer.alloc(4096, 9));
    const restored = await call(api(), owner, 'POST', '/backup/restore');
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.ok(!existsSync(`${live}-wal`) && !existsSync(`${live}-wal.before-restore`));
    await startAndWait(api(), owner, server);
    assert.equal(await bpm(api(), owner), 122);
  });

  it('lets collaborators with backups:manage act on the owner backup, and refuses everyone else', async () => {
    const withPerm = await signInRegistered(api());
    const without = await signInRegistered(api());
    for (const [c, permissions] of [
      [withPerm, ['backups:manage']],
      [without, ['worlds:manage']],
    ] as const)
      assert.equal(
        (await call(api(), owner, 'POST', '/collaborators', { discordId: c.user.id, permissions })).status,
        201,
      );
    const seen = await call(api(), withPerm, 'GET', '/backup');
    assert.equal(seen.status, 200);
    assert.equal(seen.body.exists, true, "the owner's backup");
    for (const [method, path] of [
      ['GET', '/backup'],
      ['POST', '/backup'],
      ['DELETE', '/backup'],
      ['POST', '/backup/restore'],
    ] as const) {
      const refused = await call(api(), without, method, path);
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.equal(refused.body.error, p.noPermission);
    }
    const stranger = await signInRegistered(api());
    const noServer = await call(api(), stranger, 'POST', '/backup');
    assert.equal(noServer.status, 404);
    assert.equal(noServer.body.code, 'no_server');
    const other = await api().request('GET', `/users/${owner.user.id}/server/backup`, { token: stranger.sessionToken });
    assert.equal(other.status, 403, "another account's backup");

    // The collaborator's delete removes the owner's backup.
    assert.equal((await call(api(), withPerm, 'DELETE', '/backup')).status, 200);
    assert.equal((await call(api(), owner, 'GET', '/backup')).body.exists, false);
  });

  it('is locked by disableBackupManager for everyone but admins, and refused to banned users', async () => {
    await sql(api(), "INSERT INTO settings (key, value) VALUES ('disableBackupManager', 'true')");
    try {
      for (const [method, path] of [
        ['GET', '/backup'],
        ['POST', '/backup'],
        ['DELETE', '/backup'],
        ['POST', '/backup/restore'],
      ] as const) {
        const refused = await call(api(), owner, method, path);
        assert.equal(refused.status, 403, `${method} ${path}`);
        assert.equal(refused.body.error, messages.featureDisabled);
      }
      await sql(api(), 'UPDATE users SET is_admin = 1 WHERE id = ?', [owner.user.id]);
      assert.equal((await call(api(), owner, 'GET', '/backup')).status, 200, 'admins bypass it');
      assert.equal((await call(api(), owner, 'POST', '/backup')).status, 200);
      await sql(api(), 'UPDATE users SET is_admin = 0 WHERE id = ?', [owner.user.id]);
    } finally {
      await sql(api(), "DELETE FROM settings WHERE key = 'disableBackupManager'");
    }
    await sql(api(), "UPDATE users SET is_banned = 1, ban_reason = 'x' WHERE id = ?", [owner.user.id]);
    try {
      const banned = await call(api(), owner, 'POST', '/backup/restore');
      assert.equal(banned.status, 403);
      assert.equal(banned.body.error, p.bannedBackups);
    } finally {
      await sql(api(), 'UPDATE users SET is_banned = 0 WHERE id = ?', [owner.user.id]);
    }
  });

  it("counts the backup in the owner's storage limit: writes and a second backup are refused past it", async () => {
    assert.equal((await call(api(), owner, 'GET', '/backup')).body.exists, true);
    const MB = 1024 * 1024;
    // The server alone stays far below 5 MB; a backup recorded at 10 MB takes the account past it.
    await sql(api(), 'UPDATE users SET storage_limit_mb = 5 WHERE id = ?', [owner.user.id]);
    await sql(api(), 'UPDATE backups SET bytes = ? WHERE owner_id = ?', [10 * MB, owner.user.id]);
    try {
      const world = (await call(api(), owner, 'GET', '/worlds/START')).body;
      const refused = await call(api(), owner, 'PUT', '/worlds/START', world);
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error, h.storageFullWrite);
      const profile = await api().request('GET', `/users/${owner.user.id}/profile`, { token: owner.sessionToken });
      assert.ok(profile.body.profile.storageUsedMB >= 10, JSON.stringify(profile.body.profile.storageUsedMB));
      // Deleting the backup gives the room back.
      assert.equal((await call(api(), owner, 'DELETE', '/backup')).status, 200);
      assert.equal((await call(api(), owner, 'PUT', '/worlds/START', world)).status, 200);
      await sql(api(), 'UPDATE users SET storage_limit_mb = 0 WHERE id = ?', [owner.user.id]);
      const noRoom = await call(api(), owner, 'POST', '/backup');
      assert.equal(noRoom.status, 409);
      assert.equal(noRoom.body.error, h.storageFullWrite);
      assert.equal((await call(api(), owner, 'GET', '/backup')).body.exists, false);
    } finally {
      await sql(api(), 'UPDATE users SET storage_limit_mb = 256 WHERE id = ?', [owner.user.id]);
    }
  });

  it('does not shadow power actions: a server named "backup" starts and stops, and its owner restores', async () => {
    const user = await signInRegistered(api());
    const literal = 'backup';
    assert.equal((await call(api(), user, 'POST', '', { serverName: literal })).status, 201);
    const start = await call(api(), user, 'POST', '/backup/start');
    assert.equal(start.status, 202, JSON.stringify(start.body));
    await waitForStatus(api(), literal, 'ONLINE');
    assert.equal((await call(api(), user, 'POST', '/backup')).status, 200);
    const restore = await call(api(), user, 'POST', '/backup/restore');
    assert.equal(restore.status, 200, JSON.stringify(restore.body));
    await waitForStatus(api(), literal, 'OFFLINE');
    assert.equal((await call(api(), user, 'POST', '/backup/start')).status, 202);
    await waitForStatus(api(), literal, 'ONLINE');
    assert.equal((await call(api(), user, 'POST', '/backup/stop')).status, 202);
    await waitForStatus(api(), literal, 'OFFLINE');
    const unknown = await call(api(), user, 'POST', '/backup/explode');
    assert.equal(unknown.status, 404);
  });
});

async function serverId(api: TestApi, s: Session) {
  const [row] = await api.ctx.db.all<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [s.user.id]);
  return row?.id;
}
/** The live database where the local driver keeps it: the damage test breaks it on disk, as a failing disk would. */
const liveDb = (api: TestApi, id: string) => join(api.ctx.config.dataDir, 'servers', id, 'engine.db');
