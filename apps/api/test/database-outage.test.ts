import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { messages } from '@canopy/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type Db, isDatabaseUnavailable } from '../src/db/db.ts';
import { openDatabase } from '../src/db/open.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createPgDatabase, dialects, PG_ADMIN_URL } from './support/databases.ts';
import { FakeDiscord } from './support/fake-discord.ts';
import { type ApiResponse, requestJson, startApi, type TestApi } from './support/harness.ts';
import { type PgProxy, startPgProxy } from './support/pg-proxy.ts';

// Issue 21 item 7: PostgreSQL down answered a bare 500 on every call, and a frozen one (SIGSTOP) held every
// request for the whole freeze. Now each call gives up within the database timeouts and answers 503 with the
// contract's text, and the api serves again as soon as the database is back.

// Short bounds, so that an answer arrives well inside HANGING_MS.
const TIMEOUTS = {
  CANOPY_DB_CONNECT_TIMEOUT_MS: '500',
  CANOPY_DB_STATEMENT_TIMEOUT_MS: '400',
  CANOPY_DB_QUERY_TIMEOUT_MS: '800',
};
/** A call not answered by then counts as hanging (it would last the whole outage): far beyond every timeout above. */
const HANGING_MS = 10_000;

/** One request over HTTP; it fails (aborts) instead of hanging when the api does not answer. */
function call(url: string, method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  return requestJson(url, method, path, { ...opts, signal: AbortSignal.timeout(HANGING_MS) });
}

function assertUnavailable(answer: ApiResponse, what: string) {
  assert.equal(answer.status, 503, `${what}: ${JSON.stringify(answer.body)}`);
  assert.deepEqual(answer.body, { error: messages.unavailable, code: 'unavailable' }, what);
}

let users = 0;
/** POST /auth/login for a new Discord identity (a write: the user row and a refresh token). */
function login(url: string, discord: FakeDiscord) {
  users += 1;
  const id = String(420000000000000000n + BigInt(process.pid) * 1000n + BigInt(users));
  discord.grant(`token-${id}`, { id, username: `outage${users}`, discriminator: '1', avatar: null, email: null });
  return { id, answer: call(url, 'POST', '/auth/login', { body: { accessToken: `token-${id}` } }) };
}

/** A signed-in user with a GrowID, whose profile reads answer 200. */
async function registered(url: string, discord: FakeDiscord) {
  const { id, answer } = login(url, discord);
  const signedIn = await answer;
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  const token = signedIn.body.sessionToken as string;
  const body = { discordId: id, discordUsername: `outage${users}`, growId: `Out${id.slice(-8)}` };
  const done = await call(url, 'POST', '/register', { token, body });
  assert.equal(done.status, 201, JSON.stringify(done.body));
  return { id, token };
}

/** Listens on a free local port with `onConnection`; once closed, the port is one nobody answers on. */
async function listenLocal(onConnection: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

const pgUrlOn = (port: number) => {
  const url = new URL(PG_ADMIN_URL);
  url.port = String(port);
  return url.toString();
};

describe('the PostgreSQL pool gives up within its timeouts', () => {
  const timeouts = loadConfig({ NODE_ENV: 'test', CANOPY_DATA_DIR: tmpdir(), ...TIMEOUTS }).database;

  /** What `run` failed with; the test fails when it took longer than HANGING_MS. */
  async function failureOf(run: () => Promise<unknown>) {
    let timer: NodeJS.Timeout | undefined;
    const hanging = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the call hung')), HANGING_MS);
    });
    try {
      await Promise.race([run(), hanging]);
    } catch (error) {
      assert.notEqual((error as Error).message, 'the call hung');
      return error;
    } finally {
      clearTimeout(timer);
    }
    assert.fail('the call succeeded');
  }

  it('a closed port: no database there', async () => {
    const { server, port } = await listenLocal(() => {});
    await new Promise((r) => server.close(r));
    const db = openPostgres(pgUrlOn(port), timeouts);
    try {
      const error = await failureOf(() => db.all('SELECT 1'));
      assert.ok(isDatabaseUnavailable(error), String(error));
    } finally {
      await db.close();
    }
  });

  it('a server that accepts connections and never answers (a frozen PostgreSQL)', async () => {
    const held: Socket[] = [];
    const { server, port } = await listenLocal((socket) => {
      held.push(socket); // accepted, and never answered
      socket.on('error', () => {});
    });
    const db: Db = openPostgres(pgUrlOn(port), timeouts);
    try {
      const query = await failureOf(() => db.all('SELECT 1'));
      assert.ok(isDatabaseUnavailable(query), `a query: ${String(query)}`);
      const transaction = await failureOf(() => db.transaction((tx) => tx.run('SELECT 1')));
      assert.ok(isDatabaseUnavailable(transaction), `a transaction: ${String(transaction)}`);
      assert.ok(held.length > 0, 'the pool did connect to the stand-in');
    } finally {
      await db.close();
      for (const s of held) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});

if (dialects.includes('postgres'))
  describe('PostgreSQL that goes away while the api runs answers 503, and the api recovers', () => {
    let proxy: PgProxy;
    let drop: () => Promise<void>;
    let discord: FakeDiscord;
    let dataDir: string;
    let db: Db;
    let close: () => Promise<void>;
    let url: string;
    let user: { id: string; token: string };

    before(async () => {
      const pg = await createPgDatabase();
      drop = pg.drop;
      const real = new URL(pg.url);
      // The api reaches its (real) database through the relay, which the tests freeze and cut.
      proxy = await startPgProxy({ host: real.hostname, port: Number(real.port || 5432) });
      real.port = String(proxy.port);
      discord = await new FakeDiscord().start();
      dataDir = mkdtempSync(join(tmpdir(), 'canopy-outage-'));
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        CANOPY_DATA_DIR: dataDir,
        CANOPY_WEB_DIST: join(dataDir, 'no-web'),
        DISCORD_API_URL: discord.url,
        DATABASE_URL: real.toString(),
        ...TIMEOUTS,
      });
      db = await openDatabase(config);
      const { app } = await buildApp(config, db);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      close = () => app.close();
      user = await registered(url, discord);
    });
    after(async () => {
      await close();
      await db.close();
      await discord.stop();
      await proxy.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const profile = () => call(url, 'GET', `/users/${user.id}/profile`, { token: user.token });

    it('frozen: reads and writes answer 503 within the timeouts; served again after the thaw', async () => {
      assert.equal((await profile()).status, 200, 'served before the freeze');
      proxy.freeze();
      try {
        assertUnavailable(await profile(), 'a read on a pooled connection');
        assertUnavailable(await profile(), 'a read on a new connection');
        assertUnavailable(await login(url, discord).answer, 'a sign-in (a write)');
      } finally {
        proxy.thaw();
      }
      assert.equal((await profile()).status, 200, 'served again after the thaw');
      assert.equal((await login(url, discord).answer).status, 200, 'sign-ins work again');
    });

    it('down (connections dropped, port closed): 503; served again once it is back', async () => {
      await proxy.cut();
      try {
        assertUnavailable(await profile(), 'a read with every connection gone');
        assertUnavailable(await login(url, discord).answer, 'a sign-in (a write)');
      } finally {
        await proxy.restore();
      }
      assert.equal((await profile()).status, 200, 'served again once the database is back');
    });
  });

describe('SQLite locked by another connection past its busy timeout answers 503', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi('sqlite', { CANOPY_SQLITE_BUSY_TIMEOUT_MS: '200' });
  });
  after(() => api.close());

  it('a sign-in (a write) while a script holds the write lock; served again once it lets go', async () => {
    const user = await registered(api.url, api.discord);
    const other = new DatabaseSync(join(api.ctx.config.dataDir, 'canopy.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      assertUnavailable(await login(api.url, api.discord).answer, 'a sign-in');
      const read = await call(api.url, 'GET', `/users/${user.id}/profile`, { token: user.token });
      assert.equal(read.status, 200, 'reads go on beside the lock (WAL)');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    assert.equal((await login(api.url, api.discord).answer).status, 200, 'served again once the lock is gone');
  });
});
