import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runDueSchedules } from '../src/schedules/run-schedules.ts';
import { schedulesRepo } from '../src/schedules/schedules.repo.ts';
import { createPgDatabase } from './support/databases.ts';
import { ownerWithServer } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';

const SCHEDULES = 10;

// Two api replicas on one PostgreSQL database: a schedule due while both pass over it (a leader handing over to
// the next) runs once, because each run is claimed by a conditional UPDATE of its row first.
describe('schedules on two replicas [postgres]', () => {
  let pg: Awaited<ReturnType<typeof createPgDatabase>>;
  let a: TestApi;
  let b: TestApi;

  before(async () => {
    pg = await createPgDatabase();
    a = await startApi('postgres', { DATABASE_URL: pg.url });
    b = await startApi('postgres', { DATABASE_URL: pg.url });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await pg?.drop();
  });

  it('claims a due run for one caller only', async () => {
    const owner = await ownerWithServer(a, `screp${process.pid % 1000}`);
    const res = await a.request('POST', `/users/${owner.user.id}/server/schedules`, {
      token: owner.sessionToken,
      body: { action: 'restart', time: '03:00', weekday: null, timeZone: 'UTC' },
    });
    assert.equal(res.status, 201);
    const id = res.body.schedule.id;
    const due = Date.parse(res.body.schedule.nextRunAt);
    const claims = await Promise.all([
      schedulesRepo.claim(a.ctx.db, id, due, due + 86_400_000, due),
      schedulesRepo.claim(b.ctx.db, id, due, due + 86_400_000, due),
    ]);
    assert.deepEqual(claims.sort(), [false, true], 'exactly one of two claims of the same run wins');
    await a.ctx.db.run('DELETE FROM schedules WHERE id = ?', [id]);
  });

  it('runs each due schedule exactly once when two schedulers pass at the same time', async () => {
    const owner = await ownerWithServer(a, `scrun${process.pid % 1000}`);
    for (let i = 0; i < SCHEDULES; i++) {
      const res = await a.request('POST', `/users/${owner.user.id}/server/schedules`, {
        token: owner.sessionToken,
        body: { action: 'broadcast', message: `hello ${i}`, time: `1${i}:00`, weekday: null, timeZone: 'UTC' },
      });
      assert.equal(res.status, 201);
    }
    const now = Math.min(a.clock.now, b.clock.now);
    await a.ctx.db.run(
      'UPDATE schedules SET next_run_at = ? WHERE server_id = (SELECT id FROM servers WHERE owner_id = ?)',
      [now - 1000, owner.user.id],
    );
    await Promise.all([runDueSchedules(a.ctx), runDueSchedules(b.ctx), runDueSchedules(a.ctx), runDueSchedules(b.ctx)]);
    const ran = await a.ctx.db.all<{ details: string }>(
      "SELECT details FROM activity_logs WHERE action = 'Schedule ran' AND details LIKE ?",
      [`scrun${process.pid % 1000}:%`],
    );
    assert.equal(ran.length, SCHEDULES, ran.map((r) => r.details).join('\n'));
    const left = await a.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM schedules WHERE next_run_at <= ?', [now]);
    assert.equal(Number(left?.n), 0, 'every run moved to its next time');
  });
});
