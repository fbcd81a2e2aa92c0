// The command line as a real process: every step printed, exit status 0, against the stand-ins.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type FakeServer, startFakeServer } from './fake-game-server.ts';
import { type StandIn, startGatewayStandIn } from './gateway-stand-in.ts';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
let game: FakeServer;
let gateway: StandIn;

before(async () => {
  game = await startFakeServer();
  gateway = await startGatewayStandIn(game.frontPort);
});

after(() => {
  game.stop();
  gateway.close();
});

test('runs server_data, token, login, enter_game, join, say, leave and prints each step', async () => {
  const args = ['--server-data', gateway.url, '--server', 'MYSERVER', '--growid', 'Alice', '--password', 'pw'];
  const { stdout } = await run(process.execPath, [cli, ...args, '--create', '--world', 'START', '--say', 'hi all']);
  const steps = stdout
    .trim()
    .split('\n')
    .map((l) => l.replace(/^\[gtclient\] (\S+?):.*$/, '$1'));
  assert.deepEqual(steps, [
    'server_data',
    'token',
    'login',
    'enter_game',
    'join',
    'say',
    'leave',
    '[gtclient] disconnected',
  ]);
  assert.match(stdout, /join: START 3x2/);
  assert.match(stdout, /say: hi all/);
  assert.equal(gateway.forms.at(-1)?.get('create'), '1');
});

test('a refused step exits 1 with the reason', async () => {
  const args = ['--server-data', gateway.url, '--server', 'MYSERVER', '--growid', 'Alice', '--password', 'wrong'];
  await assert.rejects(run(process.execPath, [cli, ...args]), (err: { code?: number; stdout?: string }) => {
    assert.equal(err.code, 1);
    assert.match(err.stdout ?? '', /failed: Wrong GrowID or password\./);
    return true;
  });
});
