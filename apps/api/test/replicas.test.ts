import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ServerSocketMessage } from '@canopy/contract';
import { SCHEDULER_LOCK_KEY } from '../src/scheduler/leader.ts';
import { openSocket } from './support/console-socket.ts';
import { createPgDatabase, dialects } from './support/databases.ts';
import { ownerWithServer, signInAdmin, signInRegistered } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { until, untilValue } from './support/until.ts';

// Several replicas share one PostgreSQL (ADR 0036); SQLite is one process and has nothing to share.
describe('two api replicas on one PostgreSQL', { skip: !dialects.includes('postgres') }, () => {
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let a: TestApi;
  let b: TestApi;
  const closed = new Set<TestApi>();

  /** The backend pid holding the scheduler's lock on this database, if any (asked through a replica still open). */
  const lockHolder = async () =>
    (
      await (closed.has(a) ? b : a).ctx.db.get<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = 0 AND objid = ?
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        [SCHEDULER_LOCK_KEY],
      )
    )?.pid;
  const leaders = () => [a, b].filter((api) => !closed.has(api) && api.ctx.leader?.isLeader);
  /** Bans the user through replica B (as the admin of `adminToken`) and waits for the ban notice on `socket`. */
  const banThroughB = async (
    userId: string,
    adminToken: string,
    socket: { messages: ServerSocketMessage[] },
    what: string,
  ) => {
    const ban = await b.request('POST', `/admin/users/${userId}/ban`, {
      body: { reason: 'Exploiting/Cheating', duration: '2w' },
      token: adminToken,
    });
    assert.equal(ban.status, 200);
    await until(() => socket.messages.some((m) => m.type === 'account_notice' && m.payload.kind === 'banned'), what);
  };

  before(async () => {
    pgDb = await createPgDatabase();
    // One session key, as replicas behind one load balancer share it: a token works on either.
    const env = {
      DATABASE_URL: pgDb.url,
      CANOPY_SESSION_SECRET: randomBytes(32).toString('hex'),
      CANOPY_SCHEDULER_LEADER_RETRY_MS: '200',
    };
    a = await startApi('postgres', env);
    // The second starts on a database the first has migrated.
    b = await startApi('postgres', env);
  });
  after(async () => {
    for (const api of [a, b]) if (api && !closed.has(api)) await api.close();
    await pgDb?.drop();
  });

  it('has exactly one scheduler leader, the holder of the advisory lock', async () => {
    assert.deepEqual(leaders(), [a]);
    assert.notEqual(await lockHolder(), undefined);
  });

  it('brings an admin ban made on replica B to the banned user’s socket on replica A', async () => {
    const user = await signInRegistered(a);
    const admin = await signInAdmin(b, 'super');
    const socket = await openSocket(a, user.user.id, user.sessionToken);
    try {
      await banThroughB(user.user.id, admin.sessionToken, socket, 'the ban notice on the other replica');
      // Delivered once: B's own copy is not echoed back to B, nor A's twice.
      assert.equal(socket.messages.filter((m) => m.type === 'account_notice').length, 1);
    } finally {
      socket.ws.close();
    }
  });

  it('brings a server deletion made on replica B (notice and status) to the owner’s socket on replica A', async () => {
    const name = `rp${process.pid % 100000}`;
    const owner = await ownerWithServer(a, name);
    const admin = await signInAdmin(b, 'super');
    const socket = await openSocket(a, owner.user.id, owner.sessionToken);
    try {
      await until(() => socket.messages.some((m) => m.type === 'status_update'), 'the initial status');
      const statuses = () => socket.messages.filter((m) => m.type === 'status_update').length;
      const deleted = await b.request('DELETE', `/admin/servers/${name}`, { token: admin.sessionToken });
      assert.equal(deleted.status, 200);
      await until(
        () => socket.messages.some((m) => m.type === 'server_notice' && m.payload.kind === 'deleted'),
        'the deletion notice on the other replica',
      );
      await until(() => statuses() === 2, 'the status change on the other replica');
      assert.deepEqual(socket.messages.filter((m) => m.type === 'status_update').at(-1)?.payload, {
        name,
        status: 'OFFLINE',
        players: 0,
      });
    } finally {
      socket.ws.close();
    }
  });

  it('keeps delivering after the event listener’s connection is cut', async () => {
    await a.ctx.db.run(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'canopy-events' AND datname = current_database()",
    );
    const user = await signInRegistered(a);
    const admin = await signInAdmin(b, 'super');
    const socket = await openSocket(a, user.user.id, user.sessionToken);
    try {
      // Both listeners are back once their LISTEN has run on new connections.
      await untilValue(async () => {
        const row = await a.ctx.db.get<{ n: number }>(
          `SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = 'canopy-events'
           AND datname = current_database() AND state = 'idle' AND query LIKE 'LISTEN%'`,
        );
        return Number(row?.n) === 2 ? true : undefined;
      }, 'the listeners to reconnect');
      await banThroughB(user.user.id, admin.sessionToken, socket, 'the ban notice after the reconnect');
    } finally {
      socket.ws.close();
    }
  });

  it('hands leadership over when the leader’s lock connection is terminated', async () => {
    const [leader] = leaders();
    const holder = await lockHolder();
    assert.ok(leader && holder);
    await a.ctx.db.run('SELECT pg_terminate_backend(?)', [holder]);
    const other = leader === a ? b : a;
    await until(() => other.ctx.leader?.isLeader === true, 'the other replica to lead');
    await until(() => !leader.ctx.leader?.isLeader, 'the old leader to give up');
    assert.deepEqual(leaders(), [other]);
  });

  it('hands leadership over when the leader closes', async () => {
    const [leader] = leaders();
    assert.ok(leader);
    const other = leader === a ? b : a;
    await leader.close();
    closed.add(leader);
    await until(() => other.ctx.leader?.isLeader === true, 'the remaining replica to lead');
    assert.notEqual(await lockHolder(), undefined);
  });
});
