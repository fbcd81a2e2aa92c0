import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { profileResponseSchema, type ServerSocketMessage, serverSocketMessageSchema } from '@canopy/contract';
import { WebSocket } from 'ws';
import { enforceServerTime } from '../src/scheduler/server-time.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

const DAY = 24 * 3600 * 1000;
const MB = 1024 * 1024;

/** A session token valid at the test clock's current time (sessions last 15 minutes). */
const tokenNow = (api: TestApi, userId: string) => api.ctx.signer.sign(userId, 'clock-moved', api.clock.now);

async function profileOf(api: TestApi, userId: string) {
  const res = await api.request('GET', `/users/${userId}/profile`, { token: tokenNow(api, userId) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return profileResponseSchema.parse(res.body).profile;
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** An open, authenticated socket of `userId` (its first status_update proves the api registered it). */
async function listen(api: TestApi, userId: string) {
  const ws = new WebSocket(`${api.url.replace('http', 'ws')}/ws/${userId}?token=${tokenNow(api, userId)}`);
  const messages: ServerSocketMessage[] = [];
  ws.on('message', (data) => messages.push(serverSocketMessageSchema.parse(JSON.parse(String(data)))));
  await until(() => messages.some((m) => m.type === 'status_update'), 'the first status of the socket');
  const notices = () => messages.flatMap((m) => (m.type === 'server_notice' ? [m.payload] : []));
  return { ws, notices };
}

let n = 0;
const uniqueName = (api: TestApi) => `live${process.pid % 1000}${api.dialect[0]}${++n}`;

/** A registered owner with a server created at the current clock, and a registered collaborator on it. */
async function ownerWithCollaborator(api: TestApi) {
  const owner = await signInRegistered(api);
  const name = uniqueName(api);
  const created = await api.request('POST', `/users/${owner.user.id}/server`, {
    token: owner.sessionToken,
    body: { serverName: name },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const server = await api.ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]);
  const collaborator = await signInRegistered(api);
  await sql(api, 'INSERT INTO collaborators (server_id, user_id, permissions, created_at) VALUES (?, ?, ?, ?)', [
    server?.id ?? '',
    collaborator.user.id,
    JSON.stringify(['server:actions', 'console:use']),
    api.clock.now,
  ]);
  return { owner, collaborator, name, serverId: server?.id ?? '' };
}

describeEachDatabase(
  'server time the panel can trust',
  (api) => {
    it('gives the exact instants the scheduler acts on, also once the grace period has begun', async () => {
      const t0 = api().clock.now;
      const { owner } = await ownerWithCollaborator(api());
      const before = await profileOf(api(), owner.user.id);
      assert.deepEqual(before.serverTime, {
        permanent: false,
        expiresAt: new Date(t0 + 3 * DAY).toISOString(),
        graceEndsAt: new Date(t0 + 6 * DAY).toISOString(),
        pendingMs: 0,
      });
      try {
        api().clock.now = t0 + 3 * DAY + 1000;
        const grace = await profileOf(api(), owner.user.id);
        // The spec's text keeps its day-only form; the exact instant travels beside it.
        assert.match(grace.estimatedExpiry, /^Grace period ends \d{2}\/\d{2}\/\d{4}$/);
        assert.equal(grace.serverTime.graceEndsAt, new Date(t0 + 6 * DAY).toISOString());
      } finally {
        api().clock.now = t0;
      }
    });

    it('shows a new account the time it will get, not a permanent server', async () => {
      const s = await signInRegistered(api());
      const p = await profileOf(api(), s.user.id);
      assert.deepEqual(p.serverTime, { permanent: false, expiresAt: null, graceEndsAt: null, pendingMs: 3 * DAY });
      await sql(api(), 'UPDATE users SET server_permanent = 1 WHERE id = ?', [s.user.id]);
      assert.equal((await profileOf(api(), s.user.id)).serverTime.permanent, true);
    });

    it("shows a collaborator the server's time and storage: the owner's figures, not their own", async () => {
      const { owner, collaborator } = await ownerWithCollaborator(api());
      await sql(api(), 'UPDATE users SET storage_used_bytes = ?, storage_limit_mb = ? WHERE id = ?', [
        5 * MB,
        300,
        owner.user.id,
      ]);
      const mine = await profileOf(api(), owner.user.id);
      const theirs = await profileOf(api(), collaborator.user.id);
      assert.equal(theirs.isCollaborator, true);
      assert.equal(theirs.storageUsedMB, 5);
      assert.equal(theirs.storageLimitMB, 300);
      assert.equal(theirs.estimatedExpiry, mine.estimatedExpiry);
      assert.deepEqual(theirs.serverTime, mine.serverTime);
      assert.notEqual(theirs.serverTime.expiresAt, null);
    });

    it('tells open dashboards of owner and collaborators when time runs out and when the server is deleted', async () => {
      const t0 = api().clock.now;
      const { owner, collaborator, name, serverId } = await ownerWithCollaborator(api());
      // Wanted running, so running out of time stops it (no engine needed for that decision).
      await sql(api(), "UPDATE servers SET desired_state = 'running' WHERE id = ?", [serverId]);
      const a = await listen(api(), owner.user.id);
      const b = await listen(api(), collaborator.user.id);
      try {
        api().clock.now = t0 + 3 * DAY + 1000;
        await enforceServerTime(api().ctx);
        for (const s of [a, b]) await until(() => s.notices().length === 1, 'the expiry notice');
        assert.deepEqual(a.notices(), [{ name, kind: 'expired' }]);
        assert.deepEqual(b.notices(), [{ name, kind: 'expired' }]);

        api().clock.now = t0 + 6 * DAY + 1000;
        await enforceServerTime(api().ctx);
        for (const s of [a, b]) await until(() => s.notices().length === 2, 'the deletion notice');
        assert.deepEqual(b.notices()[1], { name, kind: 'deleted' });
        assert.deepEqual(a.notices()[1], { name, kind: 'deleted' });
      } finally {
        api().clock.now = t0;
        a.ws.close(1000);
        b.ws.close(1000);
      }
    });

    it('says when the crash-loop guard keeps the server offline, until it is started again', async () => {
      const { owner, name, serverId } = await ownerWithCollaborator(api());
      const enginePid = () =>
        JSON.parse(readFileSync(join(api().ctx.config.dataDir, 'servers', serverId, 'engine.json'), 'utf8'))
          .pid as number;
      const start = () =>
        api().request('POST', `/users/${owner.user.id}/server/${name}/start`, {
          token: tokenNow(api(), owner.user.id),
        });
      assert.equal((await start()).status, 202);
      await waitForStatus(api(), name, 'ONLINE');
      const socket = await listen(api(), owner.user.id);
      try {
        const first = enginePid();
        process.kill(first, 'SIGKILL');
        await until(() => {
          try {
            return enginePid() !== first;
          } catch {
            return false;
          }
        }, 'the automatic restart');
        await waitForStatus(api(), name, 'ONLINE');
        assert.equal((await profileOf(api(), owner.user.id)).serverCrashLoop, false, 'one crash is restarted');

        process.kill(enginePid(), 'SIGKILL');
        await until(() => socket.notices().length === 1, 'the crash-loop notice');
        assert.deepEqual(socket.notices(), [{ name, kind: 'crash_loop' }]);
        await waitForStatus(api(), name, 'OFFLINE');
        assert.equal((await profileOf(api(), owner.user.id)).serverCrashLoop, true);

        assert.equal((await start()).status, 202);
        await waitForStatus(api(), name, 'ONLINE');
        assert.equal((await profileOf(api(), owner.user.id)).serverCrashLoop, false, 'a start clears it');
      } finally {
        socket.ws.close(1000);
        await api().request('POST', `/users/${owner.user.id}/server/${name}/stop`, {
          token: tokenNow(api(), owner.user.id),
        });
      }
    });
  },
  { CANOPY_START_SLOTS: '2', CANOPY_START_SERVER_DAYS: '3', CANOPY_SCHEDULER_INTERVAL_MS: '3600000' },
);
