import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pidAlive, signalPid } from '../src/runtime/local/pids.ts';
import { call as jsonCall } from './support/http-call.ts';

// A real api process, killed with SIGKILL as a crash or an OOM kill would, then started again on the same
// data directory: the test drives it over HTTP only, as a browser would.
const root = new URL('../../../', import.meta.url).pathname;
// Below the harness's blocks and the ephemeral range (see support/harness.ts).
const gamePorts = `${32000 + (process.pid % 70) * 10}-${32000 + (process.pid % 70) * 10 + 9}`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

function spawnApi(dataDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ['apps/api/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      CANOPY_DATA_DIR: dataDir,
      CANOPY_STOP_SERVERS_ON_EXIT: 'true',
      CANOPY_GAME_PORTS: gamePorts,
      DATABASE_URL: '',
      DISCORD_CLIENT_ID: '',
      DISCORD_API_URL: '',
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
}

/** Resolves as soon as the api answers HTTP at all (before it has finished re-attaching). */
async function answering(base: string, child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`api exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('an api killed while its server runs, then started again', () => {
  const children: ChildProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-reattach-'));
  let enginePid = 0;
  after(async () => {
    if (enginePid) for (const sig of ['SIGCONT', 'SIGKILL'] as const) signalPid(enginePid, sig);
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('re-attaches before deciding a power action: no ghost engine, stop works, nothing left over', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const call = (method: string, path: string, token?: string, body?: unknown) =>
      jsonCall(base, token ?? '', method, path, body);
    const statusOf = async (name: string) =>
      (await call('GET', '/status')).body.hostedServers.find((s: { name: string }) => s.name === name)?.status;
    const until = async (name: string, status: string) => {
      for (let i = 0; i < 600 && (await statusOf(name)) !== status; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(await statusOf(name), status);
    };

    const first = spawnApi(dataDir, port);
    children.push(first);
    await answering(base, first);
    const approve = await fetch(
      `${base}/dev-discord/oauth2/approve?username=reattacher&redirect_uri=${encodeURIComponent(`${base}/`)}`,
      { redirect: 'manual' },
    );
    const accessToken = new URLSearchParams(new URL(approve.headers.get('location') ?? '').hash.slice(1)).get(
      'access_token',
    );
    const login = await call('POST', '/auth/login', undefined, { accessToken });
    assert.equal(login.status, 200);
    const { id } = login.body.user;
    const token = login.body.sessionToken as string;
    assert.equal(
      (await call('POST', '/register', token, { discordId: id, discordUsername: 'reattacher', growId: 'Reattacher' }))
        .status,
      201,
    );
    const name = 'Survivor';
    assert.equal((await call('POST', `/users/${id}/server`, token, { serverName: name })).status, 201);
    assert.equal((await call('POST', `/users/${id}/server/${name}/start`, token)).status, 202);
    await until(name, 'ONLINE');
    const serverDir = readdirSync(join(dataDir, 'servers')).find((f) => !f.startsWith('.')) ?? '';
    const engineJson = join(dataDir, 'servers', serverDir, 'engine.json');
    enginePid = JSON.parse(readFileSync(engineJson, 'utf8')).pid;

    const killed = new Promise((r) => first.once('exit', r));
    first.kill('SIGKILL');
    await killed;
    assert.ok(pidAlive(enginePid), 'the engine outlives the api');

    // A busy engine answers late: the new api answers HTTP long before it knows the engine is there.
    process.kill(enginePid, 'SIGSTOP');
    const second = spawnApi(dataDir, port);
    children.push(second);
    await answering(base, second);
    let shown: string | undefined;
    for (let i = 0; i < 400 && shown === undefined; i++) shown = await statusOf(name);
    assert.equal(shown, 'UNKNOWN', 'while the engine has not answered, the status is not a guess');
    const resume = setTimeout(() => process.kill(enginePid, 'SIGCONT'), 300);
    const start = await call('POST', `/users/${id}/server/${name}/start`, token);
    clearTimeout(resume);
    process.kill(enginePid, 'SIGCONT');
    assert.equal(start.status, 409, `start on a live engine is refused, not a second start: ${JSON.stringify(start)}`);
    await until(name, 'ONLINE');
    assert.equal(JSON.parse(readFileSync(engineJson, 'utf8')).pid, enginePid, 'the same engine, adopted');

    const stop = await call('POST', `/users/${id}/server/${name}/stop`, token);
    assert.equal(stop.status, 202, JSON.stringify(stop));
    await until(name, 'OFFLINE');
    for (let i = 0; i < 200 && pidAlive(enginePid); i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(pidAlive(enginePid), false, 'no stray engine is left');

    const exited = new Promise((r) => second.once('exit', r));
    second.kill('SIGTERM');
    await exited;
  });
});
