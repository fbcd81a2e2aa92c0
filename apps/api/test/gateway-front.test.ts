import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OUTDATED_CLIENT_MESSAGE } from '@canopy/contract/game-client';
import { signGameToken } from '@canopy/contract/game-token';
import {
  type DisconnectReason,
  decodeIncoming,
  EnetClient,
  encodeText,
  frontLoginLines,
  type IncomingEvent,
} from '@canopy/gtclient';
import { frontMessages } from '../src/gateway/front/front.ts';
import { loadGatewayKey } from '../src/gateway/keys.ts';
import { ownerWithServer } from './support/factories.ts';
import { GATEWAY_ENV, gatewayLogin, gatewayPorts } from './support/gateway.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

/** A headless client (packages/gtclient, its own new-packet ENet) on the front: what it received and how it ended. */
async function visitFront(udpPort: number, loginText?: readonly (readonly [string, string])[]) {
  const client = new EnetClient({ timeoutMs: 30_000 });
  const events: IncomingEvent[] = [];
  const ended = new Promise<DisconnectReason>((resolve) => client.once('disconnect', resolve));
  client.on('packet', (data: Buffer) => {
    const event = decodeIncoming(data);
    if (event) events.push(event);
  });
  await client.connect('127.0.0.1', udpPort);
  const deadline = Date.now() + 20_000;
  while (!events.some((e) => e.kind === 'hello') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.ok(
    events.some((e) => e.kind === 'hello'),
    'the front says hello on connect',
  );
  if (loginText !== undefined) client.send(encodeText(2, loginText));
  const reason = await ended;
  client.close();
  return {
    reason,
    calls: events.flatMap((e) => (e.kind === 'call' ? [e.call] : [])),
    /** Text and game messages as [type, body]. */
    texts: events.flatMap((e) => (e.kind === 'text' ? [[e.type, e.text] as const] : [])),
  };
}

/** The real client's first text to the front (5.51: `protocol|225`, `ltoken|`, `platformID|`), from gtclient. */
const loginText = (token: string, protocol?: number) => frontLoginLines({ token, protocol });

describe('gateway ENet front (new-packet header, headless client)', () => {
  let api: TestApi;
  const names = [`FrA${process.pid % 10000}`, `FrB${process.pid % 10000}`];
  const ports: number[] = [];
  before(async () => {
    api = await startApi('sqlite', GATEWAY_ENV);
    for (const name of names) {
      const owner = await ownerWithServer(api, name);
      const start = await api.request('POST', `/users/${owner.user.id}/server/${name}/start`, {
        token: owner.sessionToken,
      });
      assert.equal(start.status, 202);
      const row = await api.ctx.db.get<{ game_port: number }>('SELECT game_port FROM servers WHERE name = ?', [name]);
      ports.push(Number(row?.game_port));
    }
    for (const name of names) await waitForStatus(api, name, 'ONLINE');
  });
  after(() => api.close());

  it('sends players of two hosted servers through the same front port to each server own port', async () => {
    const { udpPort } = gatewayPorts(api);
    assert.notEqual(ports[0], ports[1]);
    for (const [i, name] of names.entries()) {
      const login = await gatewayLogin(api, { server: name, growId: `Bud${i}x`, password: 'pw-bud', create: '1' });
      assert.equal(login.body.status, 'success', JSON.stringify(login.body));
      const token = login.body.token as string;
      const { reason, calls } = await visitFront(udpPort, loginText(token));
      assert.equal(calls.length, 1, JSON.stringify(calls));
      assert.equal(calls[0]?.name, 'OnSendToServer');
      assert.deepEqual(calls[0]?.args, [ports[i], 0, 0, `127.0.0.1|0|${token}`, 1, `Bud${i}x`]);
      assert.equal(reason, 'remote', 'the front ends the connection once the player is sent on');
    }
  });

  it('refuses a forged or expired token with a console message, then disconnects', async () => {
    const { udpPort } = gatewayPorts(api);
    const key = loadGatewayKey(api.ctx.config.dataDir);
    const forged = signGameToken(
      { port: 1, server: 'x', growId: 'Evil1' },
      { gateway: Buffer.alloc(32, 7), server: key },
      Date.now(),
    );
    const expired = signGameToken(
      { port: ports[0] ?? 0, server: names[0] ?? '', growId: 'Late1' },
      { gateway: key, server: key },
      Date.now() - 10 * 60_000,
    );
    for (const [token, text] of [
      [forged, frontMessages.badToken],
      [expired, frontMessages.expired],
      ['', frontMessages.noToken],
    ] as const) {
      const { reason, calls } = await visitFront(udpPort, loginText(token));
      assert.deepEqual(
        calls.map((c) => [c.name, ...c.args]),
        [['OnConsoleMessage', text]],
      );
      assert.equal(reason, 'remote');
    }
  });

  it('tells an outdated client (protocol 209, or none) to update with the log line and logon_fail, and sends it nowhere', async () => {
    const { udpPort } = gatewayPorts(api);
    const login = await gatewayLogin(api, { server: names[0] ?? '', growId: 'Old0x', password: 'pw-old', create: '1' });
    assert.equal(login.body.status, 'success', JSON.stringify(login.body));
    const token = login.body.token as string;
    for (const text of [loginText(token, 209), loginText(token).filter(([k]) => k !== 'protocol')]) {
      const { reason, calls, texts } = await visitFront(udpPort, text);
      assert.deepEqual(calls, [], 'no OnSendToServer, no console call');
      assert.deepEqual(texts, [
        [3, `action|log\nmsg|${OUTDATED_CLIENT_MESSAGE}`],
        [3, 'action|logon_fail'],
      ]);
      assert.equal(reason, 'remote');
    }
  });

  it('drops a peer that sends nothing', async () => {
    const { udpPort } = gatewayPorts(api);
    const { reason, calls } = await visitFront(udpPort);
    assert.equal(reason, 'remote');
    assert.deepEqual(calls, []);
  });

  it('is restarted on the same port when its process dies', async () => {
    const gateway = api.ctx.gateway;
    assert.ok(gateway);
    const before = gateway.front.pid;
    assert.ok(before);
    process.kill(before, 'SIGKILL');
    const deadline = Date.now() + 30_000;
    while ((gateway.front.pid === undefined || gateway.front.pid === before) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    assert.notEqual(gateway.front.pid, before);
    const login = await gatewayLogin(api, { server: names[1] ?? '', growId: 'Bud1x', password: 'pw-bud' });
    // The new process may still be binding: the client's connect is retried like the game's.
    let result: Awaited<ReturnType<typeof visitFront>> | undefined;
    while (!result && Date.now() < deadline)
      result = await visitFront(gateway.udpPort, loginText(login.body.token)).catch(() => undefined);
    assert.equal(result?.calls[0]?.args[0], ports[1]);
  });
});
