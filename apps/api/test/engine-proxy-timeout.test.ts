import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { after, before, it } from 'node:test';
import { hostingMessages } from '@canopy/contract';
import { AppError } from '../src/errors.ts';
import { ControlClient } from '../src/runtime/control-client.ts';
import { engineCall } from '../src/server-data/engine-proxy.ts';

// A frozen engine accepts the connection and never answers. The api says so at its call's timeout with a 504
// and the words of issue 21, not the 502 of an engine that is down (which the panel may try again).
const sockets = new Set<Socket>();
const frozen = createServer((socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

before(() => new Promise<void>((resolve) => frozen.listen(0, '127.0.0.1', resolve)));
after(() => {
  for (const socket of sockets) socket.destroy();
  return new Promise<void>((resolve) => frozen.close(() => resolve()));
});

it('answers 504 with a clear message when the engine does not answer in time', async () => {
  const address = frozen.address();
  assert.ok(address && typeof address === 'object');
  const control = new ControlClient('127.0.0.1', address.port, 'secret');
  await assert.rejects(engineCall(control, 'GET', '/worlds', undefined, 200), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 504);
    assert.equal(error.code, 'engine_timeout');
    assert.equal(error.message, 'The server did not answer in time. Try again, or restart it.');
    assert.equal(error.message, hostingMessages.engineTimeout);
    return true;
  });
});

it('still answers 502 when nothing listens (the engine is down)', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const address = closed.address();
  assert.ok(address && typeof address === 'object');
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const control = new ControlClient('127.0.0.1', address.port, 'secret');
  await assert.rejects(engineCall(control, 'GET', '/worlds'), (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 502);
    assert.equal(error.code, 'engine_unavailable');
    return true;
  });
});
