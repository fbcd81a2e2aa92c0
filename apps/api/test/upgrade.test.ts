import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { migrations } from '../src/db/migrations.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { openSqlite } from '../src/db/sqlite.ts';
import { createPgDatabase, dialects } from './support/databases.ts';
import { startApi, type TestApi } from './support/harness.ts';

// Upgrades run migrations forward only (docs/operations.md). The previous release's schema is what its
// migrations built, so a shipped migration must never change: the fixture holds their hashes, and a database made
// by exactly those migrations, holding an operator's data, must come up on this release with its data readable.
const previous = JSON.parse(readFileSync(new URL('./fixtures/previous-release.json', import.meta.url), 'utf8')) as {
  release: string;
  schemaVersion: number;
  migrationSha256: Record<string, string>;
};

const sha256 = (sql: unknown) => createHash('sha256').update(JSON.stringify(sql)).digest('hex');

describe('upgrades: shipped migrations', () => {
  it(`keeps every migration of ${previous.release} byte for byte (forward only: a change is a new migration)`, () => {
    for (const [version, hash] of Object.entries(previous.migrationSha256)) {
      const m = migrations.find((x) => x.version === Number(version));
      assert.ok(m, `migration ${version} was removed`);
      assert.equal(sha256(m.sql), hash, `migration ${version} (${m.name}) was edited after it shipped`);
    }
  });

  it('numbers new migrations after the previous release, each once', () => {
    const versions = migrations.map((m) => m.version);
    assert.equal(new Set(versions).size, versions.length, 'two migrations share a version');
    const shipped = Object.keys(previous.migrationSha256).map(Number);
    for (const v of versions)
      assert.ok(shipped.includes(v) || v > previous.schemaVersion, `migration ${v} slots into the shipped range`);
  });
});

const OWNER = '400000000000000777';

/** What an operator's database of the previous release holds: an owner, their server, a setting, a log line. */
async function seedPreviousRelease(db: Db) {
  await migrate(
    db,
    migrations.filter((m) => m.version <= previous.schemaVersion),
  );
  await db.run(
    `INSERT INTO users (id, username, grow_id, grow_id_key, registered_at, created_at, credit, server_expires_at)
     VALUES (?, 'olduser', 'OldGrow', 'oldgrow', 1, 1, 42, ?)`,
    [OWNER, Date.now() + 86_400_000],
  );
  await db.run(
    `INSERT INTO servers (id, owner_id, name, name_key, game_port, control_secret, created_at)
     VALUES ('srv-old', ?, 'OldWorlds', 'oldworlds', 17500, 'secret', 1)`,
    [OWNER],
  );
  await db.run("INSERT INTO settings (key, value) VALUES ('maintenance', 'false')");
}

for (const dialect of dialects) {
  describe(`upgrades: from the previous release's schema [${dialect}]`, () => {
    const cleanups: Array<() => Promise<void> | void> = [];
    after(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    it('migrates forward at start and serves the data made before', async () => {
      let env: Record<string, string>;
      if (dialect === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'canopy-api-test-upgrade-'));
        cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
        const db = openSqlite(join(dir, 'canopy.db'));
        await seedPreviousRelease(db);
        await db.close();
        env = { CANOPY_DATA_DIR: dir };
      } else {
        const pg = await createPgDatabase();
        cleanups.push(() => pg.drop());
        const db = openPostgres(pg.url);
        await seedPreviousRelease(db);
        await db.close();
        env = { DATABASE_URL: pg.url };
      }
      const api: TestApi = await startApi(dialect, env);
      cleanups.push(() => api.close());

      const rows = await api.ctx.db.all<{ version: number }>('SELECT version FROM schema_migrations');
      assert.deepEqual(
        rows.map((r) => Number(r.version)).sort((a, b) => a - b),
        migrations.map((m) => m.version).sort((a, b) => a - b),
        'every migration is applied once',
      );
      const accessToken = 'token-old-owner';
      api.discord.grant(accessToken, {
        id: OWNER,
        username: 'olduser',
        discriminator: '0',
        avatar: null,
        email: 'old@example.test',
      });
      const login = await api.request('POST', '/auth/login', { body: { accessToken } });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      const profile = await api.request('GET', `/users/${OWNER}/profile`, { token: login.body.sessionToken });
      assert.equal(profile.status, 200, JSON.stringify(profile.body));
      const text = JSON.stringify(profile.body);
      assert.ok(text.includes('OldGrow'), `the GrowID made before is there: ${text}`);
      assert.ok(text.includes('OldWorlds'), `the server made before is there: ${text}`);
      const backups = await api.request('GET', `/users/${OWNER}/server/backup`, { token: login.body.sessionToken });
      assert.equal(backups.status, 200, `the old server's pages answer: ${JSON.stringify(backups.body)}`);
    });
  });
}
