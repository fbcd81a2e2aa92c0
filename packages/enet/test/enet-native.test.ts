// The cross-check: our ENet client against growtopia.js's native host (an independent ENet implementation).

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { EnetClient } from '../src/client.ts';
import { startNativeHost, until } from './native-host.ts';

const server = await startNativeHost();
after(() => server.stop());

test('connects, exchanges small and fragmented packets both ways, disconnects', async () => {
  const client = new EnetClient();
  const received: Buffer[] = [];
  client.on('packet', (data: Buffer) => received.push(data));
  await client.connect('127.0.0.1', server.port);
  const connect = await until(() => server.events.find((e) => e.type === 'connect'), 5000, 'native connect');

  const small = Buffer.from('hello from the bot');
  client.send(small);
  const got = await until(() => server.events.find((e) => e.type === 'raw'), 5000, 'native raw');
  assert.deepEqual(got.data, small);
  assert.equal(got.channelId, 0);

  const big = randomBytes(20_000);
  client.send(big);
  const gotBig = await until(
    () => server.events.find((e) => e.type === 'raw' && e.data?.length === big.length),
    5000,
    'big packet',
  );
  assert.deepEqual(gotBig.data, big);

  server.host.send(connect.netId, Buffer.from('hello from the server'), 0);
  await until(() => (received.length >= 1 ? true : undefined), 5000, 'small from server');
  assert.equal(received[0]?.toString(), 'hello from the server');

  // Text compresses: the server range-codes it, and we must decode it to get the bytes back.
  const bigText = Buffer.from('world data '.repeat(3000));
  server.host.send(connect.netId, bigText, 0);
  await until(() => (received.length >= 2 ? true : undefined), 5000, 'big from server');
  assert.deepEqual(received[1], bigText);

  // Both range coders were exercised: ours decoded the host's compressed datagrams and the host decoded ours.
  assert.ok(client.stats.compressedReceived > 0, 'the host compressed something');
  assert.ok(client.stats.compressedSent > 0, 'we compressed something');

  await client.disconnect();
  await until(() => server.events.find((e) => e.type === 'disconnect'), 5000, 'native disconnect');
  assert.equal(client.state, 'closed');
});
