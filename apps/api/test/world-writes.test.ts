import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { before, it } from 'node:test';
import { serverPageMessages as p } from '@canopy/contract';
import { MAX_WAITING_WRITES } from '../src/server-data/write-queue.ts';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

/** A world PUT on a raw socket that sends its headers and `first` bytes of `body`, and the rest on `finish`. */
function partialPut(api: TestApi, path: string, token: string, body: Buffer, first: number) {
  const socket: Socket = connect(Number(new URL(api.url).port), '127.0.0.1');
  let answer = '';
  socket.on('data', (d) => {
    answer += d;
  });
  socket.on('error', () => {});
  const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(
    `PUT ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body.subarray(0, first));
  return {
    finish: () => socket.write(body.subarray(first)),
    drop: () => socket.destroy(),
    answer: ended,
  };
}

describeEachDatabase('world saves, one per server at a time', (api) => {
  let owner: Session;
  let world: Buffer;
  let path = '';

  before(async () => {
    owner = await signInRegistered(api());
    const server = `writes${api().dialect[0]}${process.pid % 1000}`;
    const call = (method: string, url: string) =>
      api().request(method, `/users/${owner.user.id}/server${url}`, { token: owner.sessionToken });
    await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: server },
    });
    await call('POST', `/${server}/start`);
    await waitForStatus(api(), server, 'ONLINE');
    world = Buffer.from(JSON.stringify((await call('GET', '/worlds/START')).body));
    path = `/users/${owner.user.id}/server/worlds/START`;
  });
  const current = async () => (await api().request('GET', path, { token: owner.sessionToken })).body;

  it('waiters that hang up leave the line, and the line frees once the save is done', { timeout: 60_000 }, async () => {
    const holder = partialPut(api(), path, owner.sessionToken, world, 100);
    await new Promise((r) => setTimeout(r, 200)); // the holder has its turn
    const waiters = Array.from({ length: MAX_WAITING_WRITES }, () =>
      partialPut(api(), path, owner.sessionToken, world, 0),
    );
    await new Promise((r) => setTimeout(r, 200));
    const over = await api().request('PUT', path, {
      token: owner.sessionToken,
      body: JSON.parse(world.toString()),
    });
    assert.equal(over.status, 429, 'the line is full');
    assert.equal(over.body.code, 'writes_queued');
    for (const w of waiters) w.drop();
    await Promise.all(waiters.map((w) => w.answer));
    holder.finish();
    assert.match(await holder.answer, /^HTTP\/1\.1 200 /);
    // Nobody holds the line now: the next save (of the world as it is now: saves are conditional) goes through.
    const next = await api().request('PUT', path, { token: owner.sessionToken, body: await current() });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.message, p.worldSaved);
  });

  it('a save whose connection drops mid-upload gives its turn back', { timeout: 60_000 }, async () => {
    const holder = partialPut(api(), path, owner.sessionToken, world, 100);
    await new Promise((r) => setTimeout(r, 200));
    holder.drop();
    await holder.answer;
    const next = await api().request('PUT', path, { token: owner.sessionToken, body: await current() });
    assert.equal(next.status, 200, JSON.stringify(next.body));
  });
});
