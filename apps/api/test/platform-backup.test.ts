import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { openDatabase } from '../src/db/open.ts';
import { backupPlatformSqlite, PlatformBackupError } from '../src/db/platform-backup.ts';

const run = promisify(execFile);
const repo = new URL('../../../', import.meta.url).pathname;

describe('platform database backup (npm run canopy -- db backup)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-api-test-dbbackup-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the live database whole, privately, while the panel holds it open', async () => {
    const db = await openDatabase({ dataDir: dir });
    try {
      await db.run("INSERT INTO settings (key, value) VALUES ('maintenance', 'true')");
      const target = join(dir, 'copy.db');
      const { bytes } = backupPlatformSqlite(dir, target);
      assert.ok(bytes > 0);
      assert.equal(statSync(target).mode & 0o777, 0o600);
      const copy = new DatabaseSync(target, { readOnly: true });
      try {
        assert.deepEqual(
          { ...(copy.prepare("SELECT value FROM settings WHERE key = 'maintenance'").get() as object) },
          { value: 'true' },
        );
      } finally {
        copy.close();
      }
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith('.partial')),
        [],
        'no partial file is left',
      );
      assert.throws(() => backupPlatformSqlite(dir, target), PlatformBackupError, 'an existing file is never replaced');
      assert.throws(() => backupPlatformSqlite(dir, join(dir, 'missing', 'x.db')), /does not exist/);
    } finally {
      await db.close();
    }
  });

  it('refuses a PostgreSQL platform database and names pg_dump', async () => {
    const target = join(dir, 'pg.db');
    const answer = await run(process.execPath, ['scripts/canopy.ts', 'db', 'backup', target], {
      cwd: repo,
      env: { ...process.env, CANOPY_DATA_DIR: dir, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' },
    }).catch((error: { code: number; stderr: string }) => error);
    assert.equal((answer as { code?: number }).code, 1);
    assert.match((answer as { stderr: string }).stderr, /pg_dump/);
    assert.equal(existsSync(target), false);
  });
});
