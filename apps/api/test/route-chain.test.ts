import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { it } from 'node:test';
import { defaultWorldMeta, messages } from '@canopy/contract';
import { WORLD_PUT_BODY_LIMIT } from '../src/http/body-limits.ts';
import { signIn, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { CHUNK, HUGE, streamBody } from './support/stream-body.ts';

const streamHugeBody = (api: TestApi, method: string, path: string, token?: string) =>
  streamBody(api, method, path, token);

/**
 * Declares a body of `declared` bytes on a raw socket, then writes it as fast as the server takes it
 * until the server closes the connection (or 5 s pass). Returns the answer's head and the bytes it took.
 */
function uploadUntilClosed(api: TestApi, path: string, declared: number) {
  return new Promise<{ head: string; accepted: number }>((resolve) => {
    const socket = connect(Number(new URL(api.url).port), '127.0.0.1');
    let accepted = 0;
    let head = '';
    const finish = () => resolve({ head, accepted });
    socket.on('data', (d) => {
      head += d;
    });
    socket.on('close', finish);
    socket.on('error', () => {});
    socket.write(
      `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    const pump = () => {
      while (accepted < declared && !socket.destroyed) {
        accepted += CHUNK.length;
        if (!socket.write(CHUNK)) return void socket.once('drain', pump);
      }
    };
    pump();
    setTimeout(() => socket.destroy(), 5000).unref();
  });
}

describeEachDatabase('route chain', (api) => {
  it('refuses a huge body without a valid token before reading it', async () => {
    const other = await signIn(api());
    for (const token of [undefined, 'not-a-token']) {
      const res = await streamHugeBody(api(), 'PUT', `/users/${other.user.id}/server/worlds/BIG`, token);
      assert.equal(res.status, 401, JSON.stringify(res.body));
      assert.equal(res.body.error, token ? messages.invalidToken : messages.notAuthenticated);
      assert.ok(res.sent < HUGE, `answered while the client was still sending (${res.sent} bytes sent)`);
    }
    const res = await streamHugeBody(api(), 'POST', '/register', 'not-a-token');
    assert.equal(res.status, 401);
    assert.ok(res.sent < HUGE);
    assert.equal((await api().request('GET', '/status')).status, 200);
  });

  it('closes the connection after a refusal before the body, so the rest of an upload is never read', async () => {
    const other = await signIn(api());
    const declared = 96 * 1024 * 1024;
    const res = await uploadUntilClosed(api(), `/users/${other.user.id}/server/worlds/BIG`, declared);
    assert.match(res.head, /^HTTP\/1\.1 401 /);
    assert.match(res.head, /\r\nconnection: close\r\n/i);
    assert.ok(res.accepted < declared / 3, `the api took ${res.accepted} bytes of a refused upload`);
    assert.equal((await api().request('GET', '/status')).status, 200);
  });

  it('refuses a huge body to another user, or from an unregistered user, before reading it', async () => {
    const owner = await signInRegistered(api());
    const attacker = await signIn(api());
    const toOther = await streamHugeBody(
      api(),
      'PUT',
      `/users/${owner.user.id}/server/worlds/BIG`,
      attacker.sessionToken,
    );
    assert.equal(toOther.status, 403);
    assert.equal(toOther.body.code, 'not_your_account');
    assert.ok(toOther.sent < HUGE);

    const unregistered = await streamHugeBody(
      api(),
      'PUT',
      `/users/${attacker.user.id}/server/worlds/BIG`,
      attacker.sessionToken,
    );
    assert.equal(unregistered.status, 403);
    assert.equal(unregistered.body.code, 'not_registered');
    assert.ok(unregistered.sent < HUGE);

    // An admin-only route refuses a plain user before the body, too.
    const settings = await streamHugeBody(api(), 'POST', '/admin/settings', attacker.sessionToken);
    assert.equal(settings.status, 403);
    assert.equal(settings.body.error, messages.adminOnly);
    assert.ok(settings.sent < HUGE);
  });

  it('decides server access before the body: a collaborator without the permission gets 403, not a parse error', async () => {
    const owner = await signInRegistered(api());
    const helper = await signInRegistered(api());
    const name = `chain${api().dialect[0]}${process.pid % 1000}`;
    const call = (token: string, method: string, path: string, body?: unknown) =>
      api().request(method, `/users/${owner.user.id}/server${path}`, { token, body });
    assert.equal((await call(owner.sessionToken, 'POST', '', { serverName: name })).status, 201);
    const invite = await call(owner.sessionToken, 'POST', '/collaborators', {
      discordId: helper.user.id,
      permissions: ['console:use'],
    });
    assert.equal(invite.status, 201, JSON.stringify(invite.body));
    const res = await streamHugeBody(api(), 'PUT', `/users/${helper.user.id}/server/worlds/BIG`, helper.sessionToken);
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'missing_permission');
    assert.ok(res.sent < HUGE);
  });

  it('answers 413 with the route limit for a body over it, and a world at the limit is not refused for size', async () => {
    const owner = await signInRegistered(api());
    const name = `lim${api().dialect[0]}${process.pid % 1000}`;
    const world = `/users/${owner.user.id}/server/worlds/BIG`;
    await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: name },
    });

    // Declared too large: refused before a byte is read. Sent without a length: refused once over the limit.
    const declared = await streamBody(api(), 'PUT', world, owner.sessionToken, 1, HUGE);
    const streamed = await streamBody(api(), 'PUT', world, owner.sessionToken, WORLD_PUT_BODY_LIMIT + CHUNK.length);
    for (const over of [declared, streamed]) {
      assert.equal(over.status, 413);
      assert.equal(over.body.code, 'body_too_large');
      assert.equal(over.body.error, 'The request body is too large: this request accepts at most 3.3 MB.');
    }

    const small = await api().request('POST', '/register', {
      token: owner.sessionToken,
      body: { discordId: owner.user.id, discordUsername: 'x', growId: 'y'.repeat(20 * 1024) },
    });
    assert.equal(small.status, 413);
    assert.equal(small.body.error, 'The request body is too large: this request accepts at most 16 KB.');

    // The largest legitimate world fits: the server is offline, so the engine (not the size) refuses.
    const side = 200;
    const tile = { fg: 65535, bg: 65535, o: 1, l: 1, fl: 0xffffffff, if_c: 0x7fffffff };
    const body = { ...defaultWorldMeta(side, side), blocks: Array.from({ length: side * side }, () => tile) };
    assert.ok(JSON.stringify(body).length < WORLD_PUT_BODY_LIMIT);
    const fits = await api().request('PUT', world, { token: owner.sessionToken, body });
    assert.equal(fits.status, 409, JSON.stringify(fits.body));
    assert.equal(fits.body.code, 'server_offline');
  });

  it('refuses control characters in any path parameter with a 400', async () => {
    const owner = await signInRegistered(api());
    await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: `nul${api().dialect[0]}${process.pid % 1000}` },
    });
    for (const [method, path] of [
      ['DELETE', `/users/${owner.user.id}/server/collaborators/%00`],
      ['PUT', `/users/${owner.user.id}/server/collaborators/12%0034`],
      ['GET', `/users/${owner.user.id}/server/collaborators/validate/%1F`],
      ['GET', `/users/${owner.user.id}%00/profile`],
      ['GET', `/users/${owner.user.id}/server/worlds/A%7F`],
    ] as const) {
      const res = await api().request(method, path, {
        token: owner.sessionToken,
        body: method === 'PUT' ? { permissions: ['console:use'] } : undefined,
      });
      assert.equal(res.status, 400, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body, { error: 'The address contains a control character.', code: 'invalid_path' });
    }
    // A path that is not UTF-8 is refused by the router itself, in the api's words and shape.
    const bad = await api().request('GET', `/users/${owner.user.id}/server/worlds/%C3%28`, {
      token: owner.sessionToken,
    });
    assert.deepEqual(
      { status: bad.status, body: bad.body },
      { status: 400, body: { error: 'The address is not valid.', code: 'invalid_path' } },
    );
    assert.equal((await api().request('GET', '/status')).status, 200);
  });

  it('refuses an over-long login token with a human message', async () => {
    const res = await api().request('POST', '/auth/login', { body: { accessToken: 'a'.repeat(600) } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'accessToken must be at most 512 characters.');
  });

  it('refuses a login token with a NUL or non-ASCII character with a 400, not a 502', async () => {
    for (const accessToken of ['abc\u0000def', 'tökén', 'a b', 'line\nbreak']) {
      const res = await api().request('POST', '/auth/login', { body: { accessToken } });
      assert.equal(res.status, 400, `${JSON.stringify(accessToken)}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body, {
        error: 'accessToken must be printable ASCII characters without spaces.',
        code: 'validation',
      });
    }
  });
});
