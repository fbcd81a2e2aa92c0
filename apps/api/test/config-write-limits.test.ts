import assert from 'node:assert/strict';
import { it } from 'node:test';
import { engineConfigFiles, hostingMessages } from '@canopy/contract';
import { entryBytes } from '../src/activity/server-activity.ts';
import { ownerWithServer } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { serverFiles, serverFileText } from './support/server-files.ts';
import { sql } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof ownerWithServer>>;
const MB = 1024 * 1024;
const WRITES_PER_WINDOW = 4;

const call = (api: TestApi, s: Session, method: string, path: string, body?: unknown) =>
  api.request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
const serverOf = async (api: TestApi, s: Session) =>
  (await api.ctx.db.get<{ id: string; name: string }>('SELECT id, name FROM servers WHERE owner_id = ?', [
    s.user.id,
  ])) ?? {
    id: '',
    name: '',
  };

describeEachDatabase(
  'configuration writes: one rate limit per user, and what they store in the platform database counts',
  (api) => {
    it('refuses a user past their configuration writes of the window, across routes, and no one else', async () => {
      const owner = await ownerWithServer(api(), `rl${process.pid % 10000}${api().dialect[0]}`);
      const other = await ownerWithServer(api(), `ro${process.pid % 10000}${api().dialect[0]}`);
      const writes: [string, string, unknown?][] = [
        ['POST', '/creator-list', { growId: 'Limit1' }],
        ['POST', '/farm-delay', { amount: 1200 }],
        ['DELETE', '/creator-list/Limit1'],
        ['POST', '/creator-list', { growId: 'Limit2' }],
      ];
      assert.equal(writes.length, WRITES_PER_WINDOW);
      for (const [method, path, body] of writes)
        assert.equal((await call(api(), owner, method, path, body)).status, 200);

      const past = await call(api(), owner, 'POST', '/farm-delay', { amount: 3000 });
      assert.equal(past.status, 429, JSON.stringify(past.body));
      assert.equal(past.body.code, 'rate_limited');
      assert.match(past.body.error, /^Too many requests\. Please try again in \d+ seconds\.$/);
      const refusedKit = await call(api(), owner, 'PUT', '/newbie-kit', { ITEMS: [] });
      assert.equal(refusedKit.status, 429, 'one budget for every configuration write');
      const { id } = await serverOf(api(), owner);
      const config = JSON.parse((await serverFileText(api(), id, engineConfigFiles.serverConfig)) ?? 'null');
      assert.equal(config.autofarmDelay, 1200, 'the refused write changed nothing');
      assert.equal((await call(api(), owner, 'GET', '/creator-list')).status, 200, 'reads are not limited');
      assert.equal((await call(api(), other, 'POST', '/creator-list', { growId: 'Other1' })).status, 200, 'per user');
    });

    it('counts the activity entries of a server toward its owner, and refuses a write once they fill the limit', async () => {
      const owner = await ownerWithServer(api(), `sa${process.pid % 10000}${api().dialect[0]}`);
      const { id, name } = await serverOf(api(), owner);
      assert.equal((await call(api(), owner, 'POST', '/creator-list', { growId: 'Counted1' })).status, 200);
      assert.equal((await call(api(), owner, 'POST', '/farm-delay', { amount: 1500 })).status, 200);
      const entries = await api().ctx.db.all<{ action: string; actor_name: string; details: string }>(
        'SELECT action, actor_name, details FROM activity_logs WHERE details LIKE ?',
        [`${name}:%`],
      );
      assert.equal(entries.length, 2);
      const stored = await api().ctx.db.get<{ b: number | string }>(
        'SELECT activity_bytes AS b FROM servers WHERE id = ?',
        [id],
      );
      assert.equal(
        Number(stored?.b),
        entries.reduce((sum, e) => sum + entryBytes(e.action, e.actor_name, e.details), 0),
        'every entry is counted, in its own transaction',
      );

      // The figure the profile shows holds them: measured at the next write (disk + entries).
      const disk = (await (await serverFiles(api(), id)).usage()).bytes;
      assert.equal((await call(api(), owner, 'POST', '/creator-list', { growId: 'Counted2' })).status, 200);
      const figure = await api().ctx.db.get<{ b: number | string }>(
        'SELECT storage_used_bytes AS b FROM users WHERE id = ?',
        [owner.user.id],
      );
      assert.ok(Number(figure?.b) >= disk + Number(stored?.b), `${figure?.b} >= ${disk} + ${stored?.b}`);

      // Entries alone at the limit: the next configuration write is refused with the storage-full text.
      await sql(api(), 'UPDATE users SET storage_limit_mb = 1 WHERE id = ?', [owner.user.id]);
      await sql(api(), 'UPDATE servers SET activity_bytes = ? WHERE id = ?', [MB, id]);
      const full = await call(api(), owner, 'POST', '/creator-list', { growId: 'NoRoom1' });
      assert.equal(full.status, 409, JSON.stringify(full.body));
      assert.equal(full.body.code, 'storage_full');
      assert.equal(full.body.error, hostingMessages.storageFullWrite);
      assert.deepEqual((await call(api(), owner, 'GET', '/creator-list')).body.creatorList, ['Counted1', 'Counted2']);
    });
  },
  // A day-long window: on PostgreSQL windows are aligned to the wall clock, and a 60 s one could turn over while a
  // test counts its writes up to the limit.
  { CANOPY_CONFIG_WRITE_RATE_LIMIT: String(WRITES_PER_WINDOW), CANOPY_RATE_LIMIT_WINDOW_SECONDS: '86400' },
);
