import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { hostingMessages as m } from '@canopy/contract';
import { AppError } from '../src/errors.ts';
import { ControlClient } from '../src/runtime/control-client.ts';
import { engineCall } from '../src/server-data/engine-proxy.ts';
import { measureServerData } from '../src/servers/server-usage.ts';
import type { ServerRow } from '../src/servers/servers.repo.ts';
import { buildDiscordUser, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, startApi, type TestApi } from './support/harness.ts';
import { serverFiles } from './support/server-files.ts';
import { sql, waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;
const MB = 1024 * 1024;
const LIMIT_MB = 12;

/** An error as the database driver raises it when the disk is full (PostgreSQL's disk_full). */
const diskFull = () => Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });

describeEachDatabase('the storage limit binds every write that grows a server', (api) => {
  let owner: Session;
  let name = '';
  let serverId = '';
  const call = (method: string, path: string, body?: unknown) =>
    api().request(method, `/users/${owner.user.id}/server${path}`, { token: owner.sessionToken, body });

  /** Pads the server's files (a file of its texture cache, written through its engine) to `bytes` in all. */
  let filler = 0;
  const holdBytes = async (bytes: number) => {
    const files = await serverFiles(api(), serverId);
    const others = (await files.usage()).bytes - filler;
    filler = Math.max(0, bytes - others);
    await files.write('cache/filler.bin', Buffer.alloc(filler));
    // Written past the api (a test shortcut): recorded as the api's own writes record theirs, so that a start of
    // the stopped server counts it (an offline server is counted by its recorded figure).
    const row = await api().ctx.db.get<ServerRow>('SELECT * FROM servers WHERE id = ?', [serverId]);
    if (row) await measureServerData(api().ctx, row);
  };

  before(async () => {
    owner = await signInRegistered(api());
    name = `quota${api().dialect[0]}${process.pid % 1000}`;
    assert.equal((await call('POST', '', { serverName: name })).status, 201);
    assert.equal((await call('POST', `/${name}/start`)).status, 202);
    await waitForStatus(api(), name, 'ONLINE');
    serverId = (await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]))
      ?.id as string;
    await sql(api(), 'UPDATE users SET storage_limit_mb = ? WHERE id = ?', [LIMIT_MB, owner.user.id]);
  });

  it('refuses a world PUT that would pass the limit, and the engine never sees it', async () => {
    const world = (await call('GET', '/worlds/START')).body;
    const body = { ...world, name: undefined, id: undefined, version: undefined }; // a new world: no version
    assert.ok(JSON.stringify(body).length > 4000, 'the world body is large enough to pass the margin');
    await holdBytes(LIMIT_MB * MB - 2000);
    const refused = await call('PUT', '/worlds/SPARE', body);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'storage_full');
    assert.equal(refused.body.error, m.storageFullWrite);
    assert.equal((await call('GET', '/worlds/SPARE')).status, 404, 'nothing was saved');
    // A write that fits still goes through: the rule is about this write, not a flat ban.
    await holdBytes(LIMIT_MB * MB - 512 * 1024);
    assert.equal((await call('PUT', '/worlds/SPARE', body)).status, 200);
  });

  it('refuses even a small player PUT once the server is at its limit', async () => {
    await holdBytes(LIMIT_MB * MB);
    const refused = await call('PUT', '/players/Tiny', {
      pass: 'hunter22',
      email: 'tiny@example.test',
      home_world: 'start',
      level: 2,
      gems: 0,
      xp: 0,
      wl_bank_amount: 0,
      dl_bank_amount: 0,
      inventory: [],
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, m.storageFullWrite);
    assert.equal((await call('GET', '/players/tiny')).status, 404);
    // Deleting frees room and is never refused.
    assert.equal((await call('DELETE', '/worlds/SPARE')).status, 200);
    // The owner's figure was brought up to date by the check, not left to the scheduler.
    const profile = await api().request('GET', `/users/${owner.user.id}/profile`, { token: owner.sessionToken });
    assert.ok(profile.body.profile.storageUsedMB >= LIMIT_MB, JSON.stringify(profile.body));
  });

  it('refuses restart on full storage like start, and the server keeps running', async () => {
    await holdBytes(LIMIT_MB * MB + 1);
    const restart = await call('POST', `/${name}/restart`);
    assert.equal(restart.status, 409);
    assert.equal(restart.body.error, m.storageFull);
    assert.equal((await waitForStatus(api(), name, 'ONLINE')).status, 'ONLINE');
    assert.equal((await call('POST', `/${name}/stop`)).status, 202, 'stop is always allowed');
    await waitForStatus(api(), name, 'OFFLINE');
    await holdBytes(LIMIT_MB * MB); // a stopped engine folds its WAL into the database: sizes moved
    assert.equal((await call('POST', `/${name}/start`)).status, 409);
    await holdBytes(0);
    assert.equal((await call('POST', `/${name}/start`)).status, 202);
    await waitForStatus(api(), name, 'ONLINE');
  });

  it('answers a saved world as saved even when its activity log entry cannot be written', async () => {
    await holdBytes(0);
    const db = api().ctx.db;
    const run = db.run;
    db.run = async (text, params) => {
      if (/INSERT INTO activity_logs/i.test(text)) throw diskFull();
      return run.call(db, text, params);
    };
    try {
      const world = (await call('GET', '/worlds/START')).body;
      const saved = await call('PUT', '/worlds/START', { ...world, music_bpm: 141 });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    } finally {
      db.run = run;
    }
    assert.equal((await call('GET', '/worlds/START')).body.music_bpm, 141);
  });

  it('refuses a power action the database cannot record before anything happens; one it cannot log happens, as does a deletion', async () => {
    const db = api().ctx.db;
    const run = db.run;
    const failing = (pattern: RegExp) => {
      db.run = async (text, params) => {
        if (pattern.test(text)) throw diskFull();
        return run.call(db, text, params);
      };
    };
    try {
      failing(/UPDATE servers SET desired_state/i);
      const refused = await call('POST', `/${name}/stop`);
      assert.equal(refused.status, 507);
      assert.equal(refused.body.error, m.diskFull);
      const feed = (await api().request('GET', '/status')).body.hostedServers;
      assert.equal(feed.find((s: { name: string }) => s.name === name)?.status, 'ONLINE', 'nothing happened');

      failing(/INSERT INTO activity_logs/i);
      assert.equal((await call('POST', `/${name}/stop`)).status, 202, 'the stop went ahead and says so');
      await waitForStatus(api(), name, 'OFFLINE');
      // The same for a deletion: the server is gone, so the answer says so.
      assert.equal((await call('DELETE', '')).status, 200);
      const after = (await api().request('GET', '/status')).body.hostedServers;
      assert.equal(
        after.find((s: { name: string }) => s.name === name),
        undefined,
      );
    } finally {
      db.run = run;
    }
  });

  it('answers 507 with a clear message when the platform database is full', async () => {
    const db = api().ctx.db;
    const transaction = db.transaction;
    db.transaction = async () => {
      throw diskFull();
    };
    try {
      const { accessToken } = buildDiscordUser(api());
      const login = await api().request('POST', '/auth/login', { body: { accessToken } });
      assert.equal(login.status, 507);
      assert.equal(login.body.code, 'disk_full');
      assert.equal(login.body.error, m.diskFull);
    } finally {
      db.transaction = transaction;
    }
  });
});

describe('a full SQLite platform database', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite', { CANOPY_AUTH_RATE_LIMIT_PER_IP: '1000' });
  });
  after(() => api.close());

  it('surfaces SQLITE_FULL (not a failed rollback) as 507, keeps nothing of the failed write, and recovers', async () => {
    const first = await signInRegistered(api);
    // Many refresh tokens, packed by VACUUM, then no new page allowed: a login's insert must split a page.
    await sql(
      api,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
       INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, created_at, expires_at)
       SELECT lower(hex(randomblob(16))), ?, 'filler', lower(hex(randomblob(32))), 0, 0 FROM n`,
      [first.user.id],
    );
    await sql(api, 'VACUUM');
    await sql(api, 'PRAGMA max_page_count = 1'); // clamped to the current size

    await assert.rejects(
      api.ctx.db.transaction(async (tx) => {
        await tx.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['filler', 'x'.repeat(64 * 1024)]);
      }),
      (error: Error & { errcode?: number }) => error.errcode === 13 && /full/i.test(error.message),
    );

    const refused: string[] = [];
    for (let i = 0; i < 5 && refused.length === 0; i++) {
      const { user, accessToken } = buildDiscordUser(api);
      const login = await api.request('POST', '/auth/login', { body: { accessToken } });
      if (login.status === 200) continue;
      assert.equal(login.status, 507, JSON.stringify(login.body));
      assert.equal(login.body.error, m.diskFull);
      refused.push(user.id);
    }
    assert.equal(refused.length, 1, 'a login on the full database was refused');
    const rows = await api.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM users WHERE id = ?', [
      refused[0] ?? '',
    ]);
    assert.equal(Number(rows?.n), 0, 'the refused login left no user behind');

    await sql(api, 'PRAGMA max_page_count = 1073741823');
    const { accessToken } = buildDiscordUser(api);
    assert.equal((await api.request('POST', '/auth/login', { body: { accessToken } })).status, 200);
  });
});

describe('an engine whose disk is full', () => {
  it("answers the engine's 507 as a 507 with the disk-full text, not as an unreachable server", async () => {
    const engine = createServer((_req, res) => {
      res.writeHead(507, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'The server is out of storage space; the change was not saved.' }));
    });
    await new Promise<void>((r) => engine.listen(0, '127.0.0.1', r));
    const address = engine.address();
    const control = new ControlClient('127.0.0.1', typeof address === 'object' && address ? address.port : 0, 's');
    try {
      await assert.rejects(
        engineCall(control, 'PUT', '/worlds/X', {}),
        (error: AppError) => error instanceof AppError && error.status === 507 && error.message === m.diskFull,
      );
    } finally {
      await new Promise((r) => engine.close(r));
    }
  });
});
