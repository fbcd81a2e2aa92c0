import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { healthzResponseSchema, readyzReadySchema, readyzUnavailableSchema } from '@canopy/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrations } from '../src/db/migrations.ts';
import { openDatabase } from '../src/db/open.ts';
import { createPgDatabase, dialects } from './support/databases.ts';
import { describeEachDatabase, startApi, type TestApi } from './support/harness.ts';
import { type PgProxy, startPgProxy } from './support/pg-proxy.ts';

// Issue 23 item 2: /healthz (alive) and /readyz (database answering at the latest schema, runtime booted), public,
// never rate-limited, JSON even for a browser navigation, and a reason without the error's own text when not ready.

const latest = Math.max(...migrations.map((m) => m.version));
// Versions need not be consecutive (a number can be left free): the one before the latest is the next lower one.
const previousVersion = Math.max(...migrations.map((m) => m.version).filter((v) => v < latest));

// A built web app, so that a browser navigation would get index.html if the probes were taken for pages.
const dist = mkdtempSync(join(tmpdir(), 'canopy-health-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
after(() => rmSync(dist, { recursive: true, force: true }));

async function probe(url: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(url + path, { headers, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.json() };
}

describeEachDatabase(
  'health probes',
  (api) => {
    it('GET /healthz answers 200 {"status":"ok"}', async () => {
      const answer = await probe(api().url, '/healthz');
      assert.equal(answer.status, 200);
      assert.deepEqual(healthzResponseSchema.parse(answer.body), { status: 'ok' });
    });

    it('GET /readyz answers 200 once started, naming the scheduler leader (this single replica)', async () => {
      const answer = await probe(api().url, '/readyz');
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(readyzReadySchema.parse(answer.body), { status: 'ready', leader: true });
    });

    it('a browser navigation (Accept: text/html) gets the probes, not the web app', async () => {
      const page = await fetch(`${api().url}/dashboard`, { headers: { accept: 'text/html' } });
      assert.match(await page.text(), /id="root"/, 'the web app is served here');
      for (const path of ['/healthz', '/readyz']) {
        const answer = await probe(api().url, path, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
        assert.equal(answer.status, 200, path);
        assert.match(answer.type, /application\/json/, path);
      }
    });

    it('is never rate-limited: far more probes from one address than any per-IP limit allows', async () => {
      for (let i = 0; i < 150; i++) {
        const [alive, ready] = await Promise.all([probe(api().url, '/healthz'), probe(api().url, '/readyz')]);
        assert.equal(alive.status, 200, `healthz #${i}`);
        assert.equal(ready.status, 200, `readyz #${i}`);
      }
    });

    it('a database behind this build’s schema: 503 naming both versions; ready again once migrated', async () => {
      const { db } = api().ctx;
      const row = await db.get<{ name: string; applied_at: number }>(
        'SELECT name, applied_at FROM schema_migrations WHERE version = ?',
        [latest],
      );
      assert.ok(row, 'the latest migration was applied at start');
      await db.run('DELETE FROM schema_migrations WHERE version = ?', [latest]);
      try {
        const answer = await probe(api().url, '/readyz');
        assert.equal(answer.status, 503);
        assert.deepEqual(readyzUnavailableSchema.parse(answer.body), {
          status: 'unavailable',
          reason: `database schema at version ${previousVersion}, this build needs ${latest} (migrations not done)`,
        });
        assert.equal((await probe(api().url, '/healthz')).status, 200, 'alive all the same');
      } finally {
        await db.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
          latest,
          row.name,
          row.applied_at,
        ]);
      }
      assert.equal((await probe(api().url, '/readyz')).status, 200);
    });
  },
  { CANOPY_WEB_DIST: dist },
);

describe('readiness before the background has started', () => {
  it('503 "hosted servers are being re-attached" while the api listens but startBackground has not run', async () => {
    // main.ts listens first, then re-attaches the hosted servers (startBackground): the state between the two.
    const dataDir = mkdtempSync(join(tmpdir(), 'canopy-health-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      CANOPY_DATA_DIR: dataDir,
      CANOPY_WEB_DIST: join(dataDir, 'no-web'),
    });
    const db = await openDatabase(config);
    const { app } = await buildApp(config, db);
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const answer = await probe(url, '/readyz');
      assert.equal(answer.status, 503);
      assert.deepEqual(answer.body, { status: 'unavailable', reason: 'hosted servers are being re-attached' });
      assert.equal((await probe(url, '/healthz')).status, 200);
    } finally {
      await app.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

if (dialects.includes('postgres'))
  describe('readiness with PostgreSQL down or frozen', () => {
    let proxy: PgProxy;
    let drop: () => Promise<void>;
    let api: TestApi;
    let dbName: string;

    before(async () => {
      const database = await createPgDatabase();
      drop = database.drop;
      const real = new URL(database.url);
      dbName = real.pathname.slice(1);
      proxy = await startPgProxy({ host: real.hostname, port: Number(real.port || 5432) });
      real.port = String(proxy.port);
      // Default database timeouts (connect 5 s, answer 15 s): only the probe's own bound ends a frozen check early.
      api = await startApi('postgres', { DATABASE_URL: real.toString() });
    });
    after(async () => {
      await api.close();
      await proxy.close();
      await drop();
    });

    /** The answer carries the fixed reason only: no address, port, database name or driver error. */
    function assertNoDetails(body: unknown) {
      const text = JSON.stringify(body);
      for (const secret of ['127.0.0.1', String(proxy.port), dbName, 'ECONN', 'timeout', 'postgres'])
        assert.ok(!text.includes(secret), `"${secret}" leaked in ${text}`);
    }

    it('down (connections dropped, port closed): 503 "database unreachable"; ready once it is back', async () => {
      assert.equal((await probe(api.url, '/readyz')).status, 200);
      await proxy.cut();
      try {
        const answer = await probe(api.url, '/readyz');
        assert.equal(answer.status, 503);
        assert.deepEqual(answer.body, { status: 'unavailable', reason: 'database unreachable' });
        assertNoDetails(answer.body);
        assert.equal((await probe(api.url, '/healthz')).status, 200, 'alive: a restart would not help');
      } finally {
        await proxy.restore();
      }
      assert.equal((await probe(api.url, '/readyz')).status, 200);
    });

    it('frozen (connections held, nothing answered): 503 within the probe’s own bound; ready after the thaw', async () => {
      assert.equal((await probe(api.url, '/readyz')).status, 200);
      proxy.freeze();
      try {
        const answers = await Promise.all([probe(api.url, '/readyz'), probe(api.url, '/readyz')]);
        for (const answer of answers) {
          assert.equal(answer.status, 503);
          assert.deepEqual(answer.body, { status: 'unavailable', reason: 'database did not answer within 2 s' });
        }
      } finally {
        proxy.thaw();
      }
      assert.equal((await probe(api.url, '/readyz')).status, 200);
    });
  });
