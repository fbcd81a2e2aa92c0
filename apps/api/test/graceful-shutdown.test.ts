import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { socketCloseCodes } from '@canopy/contract';
import { pidAlive, signalPid } from '../src/runtime/local/pids.ts';
import { readyz, type SpawnedApi, signedInUser, slowUpload, spawnApi } from './support/api-replica.ts';
import { createPgDatabase, dialects } from './support/databases.ts';
import { FakeDiscord } from './support/fake-discord.ts';
import { call } from './support/http-call.ts';
import { untilValue } from './support/until.ts';

// Issue 23 item 5: on SIGTERM the api flips /readyz to 503, stops taking connections, finishes the requests in
// flight, closes browsers' sockets with 1012, hands the scheduler over, leaves engines running and exits 0.
// Real processes over HTTP; the request in flight is a feedback message whose body arrives slowly (a slow link).

// Generous waits: a shared machine may be slow, and nothing here is a timing assertion.
const WAIT_MS = 90_000;
// Below the harness's blocks and the ephemeral range (see support/harness.ts), apart from reattach.test.ts's.
const base = 31000 + (process.pid % 90) * 10;
const gamePorts = `${base}-${base + 9}`;

function commonEnv(discord: FakeDiscord): Record<string, string> {
  return {
    DISCORD_API_URL: discord.url,
    DISCORD_CLIENT_ID: '',
    CANOPY_GAME_PORTS: gamePorts,
    CANOPY_AUTH_RATE_LIMIT_PER_IP: '100000',
    CANOPY_AUTH_RATE_LIMIT_PER_ACCOUNT: '100000',
    LOG_LEVEL: 'info',
  };
}

/** POST /feedback with a body still arriving: held in flight by the api until finish(). */
const slowFeedback = (url: string, user: { token: string }, message: string) =>
  slowUpload(url, user.token, 'POST', '/feedback', JSON.stringify({ type: 'Suggestion', message }));

/** Resolves once `url` refuses connections (the api stopped listening). */
async function refusing(url: string) {
  await untilValue(
    () =>
      fetch(`${url}/healthz`).then(
        () => undefined,
        () => true,
      ),
    'the port to stop accepting connections',
    WAIT_MS,
  );
}

describe('SIGTERM on a single api (SQLite, local engines)', () => {
  let discord: FakeDiscord;
  const spawned: SpawnedApi[] = [];
  let enginePid = 0;
  before(async () => {
    discord = await new FakeDiscord().start();
  });
  after(async () => {
    for (const api of spawned) api.proc.child.kill('SIGKILL');
    if (enginePid) signalPid(enginePid, 'SIGKILL');
    await discord.stop();
    for (const api of spawned) rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('drains: 503 "shutting down", the request in flight answered, 1012 to the socket, engine left and adopted', async () => {
    const env = { ...commonEnv(discord), CANOPY_STOP_SERVERS_ON_EXIT: 'false', CANOPY_SHUTDOWN_DELAY_MS: '8000' };
    const first = await spawnApi(env);
    spawned.push(first);
    const user = await signedInUser(first.url, discord, 'drain');
    const name = 'Drainer';
    assert.equal(
      (await call(first.url, user.token, 'POST', `/users/${user.id}/server`, { serverName: name })).status,
      201,
    );
    assert.equal((await call(first.url, user.token, 'POST', `/users/${user.id}/server/${name}/start`)).status, 202);
    const statusOf = async (url: string) =>
      (await call(url, '', 'GET', '/status')).body.hostedServers.find((s: { name: string }) => s.name === name)?.status;
    await untilValue(async () => ((await statusOf(first.url)) === 'ONLINE' ? true : undefined), 'ONLINE', WAIT_MS);
    const serverDir = readdirSync(join(first.dataDir, 'servers')).find((f) => !f.startsWith('.')) ?? '';
    const engineJson = join(first.dataDir, 'servers', serverDir, 'engine.json');
    enginePid = JSON.parse(readFileSync(engineJson, 'utf8')).pid;

    const socket = new WebSocket(`${first.url.replace('http', 'ws')}/ws/${user.id}?token=${user.token}`);
    const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener('close', resolve));
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve);
      socket.addEventListener('error', reject);
    });

    const inFlight = await slowFeedback(first.url, user, 'sent while the api restarts');
    assert.deepEqual((await readyz(first.url)).body, { status: 'ready', leader: true });
    first.proc.child.kill('SIGTERM');

    // Not ready at once, while it still serves during CANOPY_SHUTDOWN_DELAY_MS (a balancer polling /readyz leaves).
    const notReady = await untilValue(
      async () => {
        const answer = await readyz(first.url);
        return answer.status === 200 ? undefined : answer;
      },
      '/readyz to turn',
      WAIT_MS,
    );
    assert.deepEqual(notReady, { status: 503, body: { status: 'unavailable', reason: 'shutting down' } });
    assert.equal((await call(first.url, '', 'GET', '/status')).status, 200, 'still serving during the delay');
    // A second signal (an impatient supervisor) does not cut the shutdown short within the grace period.
    first.proc.child.kill('SIGTERM');

    await refusing(first.url);
    const close = await closed;
    assert.equal(close.code, socketCloseCodes.serviceRestart, `close code ${close.code} (${close.reason})`);
    assert.equal(first.proc.child.exitCode, null, 'still running: a request is in flight');
    const answered = await inFlight.finish();
    assert.equal(answered.status, 200, answered.body);
    assert.equal(await first.exited, 0, first.proc.output());
    const stored = new DatabaseSync(join(first.dataDir, 'canopy.db'), { readOnly: true });
    assert.deepEqual(
      stored
        .prepare('SELECT message FROM feedback')
        .all()
        .map((r) => r.message),
      ['sent while the api restarts'],
      'the write answered during the shutdown is stored',
    );
    stored.close();
    assert.ok(pidAlive(enginePid), 'the engine outlives the api');

    // The next api on the same data directory adopts the engine that kept running: same process, ONLINE.
    const second = await spawnApi({ ...env, CANOPY_STOP_SERVERS_ON_EXIT: 'true' }, first.dataDir);
    spawned.push(second);
    await untilValue(async () => ((await statusOf(second.url)) === 'ONLINE' ? true : undefined), 'adopted', WAIT_MS);
    assert.equal(JSON.parse(readFileSync(engineJson, 'utf8')).pid, enginePid, 'the same engine, adopted');
    await untilValue(async () => ((await readyz(second.url)).status === 200 ? true : undefined), 'ready', WAIT_MS);
    second.proc.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  it('cuts what is left once CANOPY_SHUTDOWN_GRACE_MS has passed, and still exits 0', async () => {
    const api = await spawnApi({ ...commonEnv(discord), CANOPY_SHUTDOWN_GRACE_MS: '500' });
    spawned.push(api);
    const user = await signedInUser(api.url, discord, 'cut');
    const inFlight = await slowFeedback(api.url, user, 'never finished');
    api.proc.child.kill('SIGTERM');
    assert.equal(await api.exited, 0, api.proc.output());
    const answer = await inFlight.finish();
    assert.equal(answer.status, 0, `the held request was cut, not answered: ${JSON.stringify(answer)}`);
    assert.match(api.proc.output(), /grace period over: cutting 1 connection/);
  });
});

if (dialects.includes('postgres'))
  describe('SIGTERM on the scheduler leader of two replicas (PostgreSQL)', () => {
    let discord: FakeDiscord;
    let drop: () => Promise<void>;
    const spawned: SpawnedApi[] = [];
    before(async () => {
      discord = await new FakeDiscord().start();
    });
    after(async () => {
      for (const api of spawned) api.proc.child.kill('SIGKILL');
      await discord.stop();
      await drop?.();
      for (const api of spawned) rmSync(api.dataDir, { recursive: true, force: true });
    });

    it('the other replica leads while the leader still drains: no waiting for its exit or a retry', async () => {
      const database = await createPgDatabase();
      drop = database.drop;
      // Followers would try again only after a minute: leading sooner needs the leader's handover.
      const env = { ...commonEnv(discord), DATABASE_URL: database.url, CANOPY_SCHEDULER_LEADER_RETRY_MS: '60000' };
      const a = await spawnApi(env);
      spawned.push(a);
      const b = await spawnApi(env);
      spawned.push(b);
      assert.deepEqual((await readyz(a.url)).body, { status: 'ready', leader: true });
      assert.deepEqual((await readyz(b.url)).body, { status: 'ready', leader: false });

      const user = await signedInUser(a.url, discord, 'leader');
      const inFlight = await slowFeedback(a.url, user, 'held across the handover');
      a.proc.child.kill('SIGTERM');
      await untilValue(
        async () => ((await readyz(b.url)).body as { leader?: boolean }).leader || undefined,
        'the other replica to lead',
        // Well inside the followers' minute between tries, so that only the handover can make this true.
        30_000,
      );
      assert.equal(a.proc.child.exitCode, null, 'the old leader is still draining its request');
      assert.equal((await inFlight.finish()).status, 200);
      assert.equal(await a.exited, 0, a.proc.output());
      assert.match(a.proc.output(), /scheduler leadership given up \(handed over/);
      b.proc.child.kill('SIGTERM');
      assert.equal(await b.exited, 0, b.proc.output());
    });
  });
