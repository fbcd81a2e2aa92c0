import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ENGINE_LOG_LINE, engineExitCodes, engineStateFileSchema } from '@canopy/contract';
import { dataDirsForFile, spawnEngine, startEngine, stopEngine, TEST_SECRET } from './support/engine-process.ts';

const dir = dataDirsForFile();

/** Spawns with the given flags and expects a FATAL line and an exit status. */
async function expectFatal(args: string[], env: Record<string, string | undefined>, status: number, text: RegExp) {
  const proc = spawnEngine({ args, env });
  const { code } = await proc.exited;
  const fatal = proc.lines.find((l) => l.includes('[FATAL]'));
  assert.ok(fatal, `a FATAL line, got:\n${proc.lines.join('\n')}`);
  assert.match(fatal, ENGINE_LOG_LINE);
  assert.match(fatal, text);
  assert.equal(code, status);
}

describe('command line and environment', () => {
  it('names a bad flag in a FATAL line and exits 2', async () => {
    const d = dir();
    await expectFatal(
      ['--data-dir', d, '--game-port', '0', '--control-port', '0', '--frobnicate'],
      {},
      2,
      /--frobnicate/,
    );
    await expectFatal(
      ['--data-dir', d, '--game-port', 'x', '--control-port', '0'],
      {},
      2,
      /--game-port must be an integer/,
    );
    await expectFatal(['--data-dir', d, '--game-port', '0'], {}, 2, /--control-port is required/);
    await expectFatal(
      ['--data-dir', d, '--game-port', '0', '--control-port', '0', '--control-host', '0.0.0.0'],
      {},
      2,
      /--control-host must be a loopback address/,
    );
  });

  it('listens beyond loopback only when told its control API is exposed (a pod, reached over the cluster network)', async () => {
    const d = dir();
    const engine = await startEngine({
      dataDir: d,
      args: [
        '--data-dir',
        d,
        '--game-port',
        '0',
        '--control-port',
        '0',
        '--control-host',
        '0.0.0.0',
        '--control-exposed',
      ],
    });
    try {
      assert.match(engine.url, /^http:\/\/0\.0\.0\.0:\d+$/);
      const res = await fetch(`${engine.url.replace('0.0.0.0', '127.0.0.1')}/stats`);
      assert.equal(res.status, 401, 'still behind its secret');
      assert.equal((await engine.request('GET', '/stats')).status, 200);
    } finally {
      assert.equal((await stopEngine(engine)).code, 0);
    }
  });

  it('takes the secret only from the environment', async () => {
    const args = ['--data-dir', dir(), '--game-port', '0', '--control-port', '0'];
    await expectFatal(args, { CANOPY_ENGINE_SECRET: undefined }, 2, /CANOPY_ENGINE_SECRET is not set/);
    await expectFatal(args, { CANOPY_ENGINE_SECRET: 'short' }, 2, /at least 16 characters/);
    await expectFatal([...args, '--secret', TEST_SECRET], {}, 2, /--secret is not accepted on the command line/);
  });

  it('reads its flags from the environment too', async () => {
    const d = dir();
    const engine = await startEngine({
      dataDir: d,
      args: [],
      env: { CANOPY_ENGINE_DATA_DIR: d, CANOPY_ENGINE_GAME_PORT: '0', CANOPY_ENGINE_CONTROL_PORT: '0' },
    });
    assert.ok(existsSync(join(d, 'engine.db')), 'the database is in the directory the environment named');
    assert.equal((await stopEngine(engine)).code, 0);
  });
});

describe('start and stop', () => {
  it('prints one READY line, writes engine.json, and removes it on a clean stop', async () => {
    const engine = await startEngine({ dataDir: dir() });
    const ready = engine.lines.filter((l) => l.includes('READY'));
    assert.equal(ready.length, 1);
    assert.match(ready[0] ?? '', /\[INFO\] READY control=127\.0\.0\.1:\d+ game=\d+ version=\S+ pid=\d+$/);
    assert.equal(engine.pid, engine.child.pid);
    const state = engineStateFileSchema.parse(JSON.parse(readFileSync(join(engine.dataDir, 'engine.json'), 'utf8')));
    assert.equal(state.pid, engine.pid);
    assert.equal(state.gamePort, engine.gamePort);
    assert.equal(`http://${state.controlHost}:${state.controlPort}`, engine.url);

    engine.child.kill('SIGTERM');
    const { code } = await engine.exited;
    assert.equal(code, 0);
    assert.ok(engine.lines.some((l) => /\[INFO\] Saved \d+ worlds and \d+ players/.test(l)));
    assert.match(engine.lines.at(-1) ?? '', /\[INFO\] Stopped$/);
    assert.equal(existsSync(join(engine.dataDir, 'engine.json')), false);
    for (const line of engine.lines) assert.match(line, ENGINE_LOG_LINE);
  });

  it('reports a game port that is taken with a FATAL line', async () => {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '0.0.0.0', resolve));
    const port = socket.address().port;
    try {
      await expectFatal(
        ['--data-dir', dir(), '--game-port', String(port), '--control-port', '0'],
        {},
        engineExitCodes.portInUse,
        new RegExp(`Game port ${port}/udp is not available`),
      );
    } finally {
      socket.close();
    }
  });

  it('reports a control port that is taken with a FATAL line', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      await expectFatal(
        ['--data-dir', dir(), '--game-port', '0', '--control-port', String(port)],
        {},
        engineExitCodes.portInUse,
        new RegExp(`Control port 127\\.0\\.0\\.1:${port} is not available \\(EADDRINUSE\\)`),
      );
    } finally {
      server.close();
    }
  });

  it('refuses a second engine on the same data directory with exit 3', async () => {
    const d = dir();
    const first = await startEngine({ dataDir: d });
    await expectFatal(
      ['--data-dir', d, '--game-port', '0', '--control-port', '0'],
      {},
      engineExitCodes.alreadyRunning,
      new RegExp(`Another engine \\(pid ${first.pid}\\)`),
    );
    // Without engine.json (say, a race between two starts) the database lock still refuses it.
    const state = readFileSync(join(d, 'engine.json'));
    writeFileSync(join(d, 'engine.json'), '{}');
    await expectFatal(
      ['--data-dir', d, '--game-port', '0', '--control-port', '0'],
      {},
      engineExitCodes.alreadyRunning,
      /is locked by another process/,
    );
    writeFileSync(join(d, 'engine.json'), state);
    assert.equal((await first.request('GET', '/stats')).status, 200, 'the first engine is unharmed');
    await stopEngine(first);
  });

  it('is not blocked by the engine.json of a SIGKILLed engine', async () => {
    const d = dir();
    const first = await startEngine({ dataDir: d });
    first.child.kill('SIGKILL');
    await first.exited;
    assert.ok(existsSync(join(d, 'engine.json')), 'a killed engine leaves its file behind');
    const second = await startEngine({ dataDir: d });
    assert.ok(second.lines.some((l) => /\[WARN\] Replacing a stale engine\.json/.test(l)));
    assert.equal((await stopEngine(second)).code, 0);
  });

  it('stops cleanly on SIGTERM while generating sample data', async () => {
    const proc = spawnEngine({
      args: ['--data-dir', dir(), '--game-port', '0', '--control-port', '0', '--sample-worlds', '100000'],
    });
    await proc.waitForLine(/First start/);
    proc.child.kill('SIGTERM');
    const { code } = await proc.exited;
    assert.equal(code, 0);
    assert.match(proc.lines.at(-1) ?? '', /\[INFO\] Stopped by a signal while starting$/);
    assert.equal(
      proc.lines.some((l) => l.includes('READY')),
      false,
    );
  });

  it('keeps running when stdin closes', async () => {
    const engine = await startEngine({ dataDir: dir() });
    engine.child.stdin.end();
    await engine.waitForLine(/stdin closed/);
    const stats = await engine.request('GET', '/stats');
    assert.equal(stats.status, 200);
    assert.equal((await stopEngine(engine)).code, 0);
  });

  it('keeps running when the reader of its stdout goes away', async () => {
    const engine = await startEngine({ dataDir: dir() });
    engine.child.stdout.destroy();
    for (let i = 0; i < 50; i++) await engine.request('POST', '/console', { command: `say line ${i}` });
    const history = (await engine.request('GET', '/console/history')).body.lines;
    assert.match(history.at(-1).line, /\[SERVER\] line 49/);
    assert.equal((await stopEngine(engine)).code, 0);
  });

  it('generates sample data only when asked, and only what is missing', async () => {
    const d = dir();
    const args = ['--data-dir', d, '--game-port', '0', '--control-port', '0'];
    const plain = await startEngine({ dataDir: d, args });
    assert.equal((await plain.request('GET', '/worlds')).body.total, 1, 'only the starting world');
    assert.equal((await plain.request('GET', '/players')).body.total, 0);
    await stopEngine(plain);

    const sample = ['--sample-worlds', '25', '--sample-players', '30'];
    const first = await startEngine({ dataDir: d, args: [...args, ...sample] });
    assert.equal((await first.request('GET', '/worlds')).body.total, 25);
    const players = (await first.request('GET', '/players')).body;
    assert.equal(players.total, 30);
    const detail = (await first.request('GET', `/players/${players.players[0].name}`)).body;
    assert.equal(detail.pass, '');
    assert.ok(detail.inventory.length > 0);
    await stopEngine(first);

    const again = await startEngine({ dataDir: d, args: [...args, ...sample] });
    assert.equal((await again.request('GET', '/worlds')).body.total, 25, 'a restart adds nothing');
    assert.equal((await again.request('GET', '/players')).body.total, 30);
    await stopEngine(again);
  });
});
