import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostingMessages } from '@canopy/contract';
import { loadConfig } from '../src/config.ts';
import { consoleOf } from './support/console-socket.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';
import { until } from './support/until.ts';

describeEachDatabase('console commands read with the contract grammar', (api) => {
  it('a collaborator with only console:use cannot stop the server with any spelling', async () => {
    const owner = await signInRegistered(api());
    const helper = await signInRegistered(api());
    const name = `gram${process.pid % 10000}${api().dialect[0]}`;
    const token = owner.sessionToken;
    await api().request('POST', `/users/${owner.user.id}/server`, { token, body: { serverName: name } });
    const added = await api().request('POST', `/users/${owner.user.id}/server/collaborators`, {
      token,
      body: { discordId: helper.user.id, permissions: ['console:use'] },
    });
    assert.equal(added.status, 201);
    await api().request('POST', `/users/${owner.user.id}/server/${name}/start`, { token });
    await waitForStatus(api(), name, 'ONLINE');

    const c = await consoleOf(api(), helper.user.id, helper.sessionToken);
    // Under the per-user burst of ten, so every answer is about the command itself.
    const attempts: [string, string][] = [
      ['stop', hostingMessages.noActionPermission],
      ['/STOP', hostingMessages.noActionPermission],
      ['ｓｔｏｐ', hostingMessages.noActionPermission],
      ['s\u200dtop', hostingMessages.noActionPermission],
      ['\tQuit\t', hostingMessages.noActionPermission],
      ['shutdown', hostingMessages.noActionPermission],
      ['stop now', 'Usage: stop'],
      ['ｓｔｏｐ\tｎｏｗ', 'Usage: stop'],
      ['stop\u0000', 'A command must be a single line.'],
    ];
    for (const [command, refusal] of attempts) {
      const before = c.errors().length;
      c.send(command);
      await until(() => c.errors().length > before, `the answer to ${JSON.stringify(command)}`);
      assert.equal(c.errors().at(-1), refusal, JSON.stringify(command));
    }
    assert.equal((await waitForStatus(api(), name, 'ONLINE')).status, 'ONLINE');
    assert.ok(!c.lines().some((l) => /> stop|Stopping/.test(l)), 'the engine was never asked to stop');

    // Others reach the engine as the canonical line the api classified.
    c.send('  /ＳＡＹ \t still\u200d here ');
    await until(() => c.lines().some((l) => /\[SERVER\] still here/.test(l)), 'the say');
    assert.ok(c.lines().some((l) => /\[INFO\] > say still here$/.test(l)));
    c.ws.close(1000);

    // The owner holds server:actions: the same look-alike is a stop, through the supervisor.
    const o = await consoleOf(api(), owner.user.id, token);
    o.send('ｓｔｏｐ');
    await waitForStatus(api(), name, 'OFFLINE');
    const row = await api().ctx.db.get<{ desired_state: string }>('SELECT desired_state FROM servers WHERE name = ?', [
      name,
    ]);
    assert.equal(row?.desired_state, 'stopped');
    o.ws.close(1000);
  });

  it('refuses unknown and benchmark-only commands without sending them to the engine', async () => {
    const owner = await signInRegistered(api());
    const name = `unk${process.pid % 10000}${api().dialect[0]}`;
    const token = owner.sessionToken;
    await api().request('POST', `/users/${owner.user.id}/server`, { token, body: { serverName: name } });
    await api().request('POST', `/users/${owner.user.id}/server/${name}/start`, { token });
    await waitForStatus(api(), name, 'ONLINE');
    const c = await consoleOf(api(), owner.user.id, token);
    const unknown: [string, string][] = [
      ['flood 2000000', 'flood'],
      ['restart', 'restart'],
      ['ѕtop', 'ѕtop'], // Cyrillic dze
    ];
    for (const [command, word] of unknown) {
      const before = c.errors().length;
      c.send(command);
      await until(() => c.errors().length > before, `the answer to ${command}`);
      assert.equal(c.errors().at(-1), `Unknown command "${word}". Type "help" for the list of commands.`);
    }
    c.send('save');
    await until(() => c.lines().some((l) => /Saved \d+ worlds/.test(l)), 'the save');
    assert.ok(!c.lines().some((l) => /> flood|Unknown command|flood \d+\//.test(l)), 'nothing reached the engine');
    await api().request('POST', `/users/${owner.user.id}/server/${name}/stop`, { token });
    await waitForStatus(api(), name, 'OFFLINE');
    c.ws.close(1000);
  });
});

describe('benchmark-only console commands', () => {
  it('are off unless asked for, and refused in production', () => {
    assert.equal(loadConfig({ NODE_ENV: 'test' }).benchCommands, false);
    assert.equal(loadConfig({ NODE_ENV: 'test', CANOPY_BENCH_COMMANDS: 'true' }).benchCommands, true);
    assert.throws(
      () => loadConfig({ NODE_ENV: 'production', DISCORD_CLIENT_ID: '1', CANOPY_BENCH_COMMANDS: 'true' }),
      /CANOPY_BENCH_COMMANDS: is for benchmarks and refused when NODE_ENV=production/,
    );
  });
});
