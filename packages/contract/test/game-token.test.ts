import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  GAME_TOKEN_REFRESH_WINDOW_MS,
  GAME_TOKEN_TTL_MS,
  gameServerKey,
  readGameToken,
  readRefreshableGameToken,
  signGameToken,
} from '../src/game-token.ts';

describe('game login token', () => {
  const gateway = randomBytes(32);
  const server = gameServerKey('a control secret of one engine, long enough');
  const other = gameServerKey('the control secret of another engine');
  const now = 1_800_000_000_000;
  const token = signGameToken({ port: 17100, server: 'Alpha', growId: 'Bob' }, { gateway, server }, now);

  it('is read by the gateway and by its own server, with the same ticket', () => {
    const byGateway = readGameToken(token, 'gateway', gateway, now + 1000);
    const byServer = readGameToken(token, 'server', server, now + 1000);
    assert.ok(byGateway && byGateway !== 'expired');
    assert.deepEqual(byServer, byGateway);
    assert.equal(byGateway.port, 17100);
    assert.equal(byGateway.growId, 'Bob');
    assert.ok(token.length < 256);
  });

  it('is refused by another server, with the wrong key side, once expired, or altered', () => {
    assert.equal(readGameToken(token, 'server', other, now), undefined);
    assert.equal(readGameToken(token, 'server', gateway, now), undefined);
    assert.equal(readGameToken(token, 'gateway', server, now), undefined);
    assert.equal(readGameToken(token, 'server', server, now + GAME_TOKEN_TTL_MS), 'expired');
    const [payload, g, s] = token.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), port: 1 }),
    ).toString('base64url');
    assert.equal(readGameToken(`${forged}.${g}.${s}`, 'gateway', gateway, now), undefined);
    for (const bad of ['', '.', 'a.b', `${token}.x`, 'x'.repeat(600), `${payload}..${s}`])
      assert.equal(readGameToken(bad, 'gateway', gateway, now), undefined, bad.slice(0, 20));
  });

  it('differs for each login (a nonce), so an engine can take each once', () => {
    const again = signGameToken({ port: 17100, server: 'Alpha', growId: 'Bob' }, { gateway, server }, now);
    assert.notEqual(again, token);
  });
});

describe('game login token as a saved sign-in (checktoken)', () => {
  const gateway = randomBytes(32);
  const server = gameServerKey('a control secret of one engine, long enough');
  const other = gameServerKey('the control secret of a server made again under the same name');
  const issued = 1_800_000_000_000;
  const token = signGameToken({ port: 17100, server: 'Alpha', growId: 'Bob' }, { gateway, server }, issued);
  const exp = issued + GAME_TOKEN_TTL_MS;

  it('is read while live and up to the window after its expiry, by the gateway and its own server', () => {
    for (const now of [issued, exp + 1, exp + GAME_TOKEN_REFRESH_WINDOW_MS]) {
      const byGateway = readRefreshableGameToken(token, 'gateway', gateway, now);
      assert.ok(byGateway && byGateway !== 'too_old', String(now));
      assert.equal(byGateway.growId, 'Bob');
      assert.deepEqual(readRefreshableGameToken(token, 'server', server, now), byGateway);
    }
    assert.equal(readGameToken(token, 'gateway', gateway, exp + 1), 'expired', 'no longer good for the game itself');
  });

  it('is too old one millisecond past the window, and a shorter window can be asked for', () => {
    assert.equal(
      readRefreshableGameToken(token, 'gateway', gateway, exp + GAME_TOKEN_REFRESH_WINDOW_MS + 1),
      'too_old',
    );
    assert.equal(readRefreshableGameToken(token, 'gateway', gateway, exp + 1001, 1000), 'too_old');
    assert.ok(readRefreshableGameToken(token, 'gateway', gateway, exp + 1000, 1000));
  });

  it('is refused when forged, altered, read with another key, or with a server key of another incarnation', () => {
    assert.equal(readRefreshableGameToken(token, 'server', other, issued), undefined);
    assert.equal(readRefreshableGameToken(token, 'gateway', server, issued), undefined);
    const [payload, g, s] = token.split('.') as [string, string, string];
    const ticket = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const later = Buffer.from(JSON.stringify({ ...ticket, exp: ticket.exp + 10 * GAME_TOKEN_REFRESH_WINDOW_MS }));
    assert.equal(
      readRefreshableGameToken(`${later.toString('base64url')}.${g}.${s}`, 'gateway', gateway, issued),
      undefined,
    );
    const forgedMac = Buffer.alloc(16).toString('base64url');
    assert.equal(readRefreshableGameToken(`${payload}.${forgedMac}.${s}`, 'gateway', gateway, issued), undefined);
    for (const bad of ['', 'a.b.c', `${token}.x`, 'x'.repeat(600)])
      assert.equal(readRefreshableGameToken(bad, 'gateway', gateway, issued), undefined, bad.slice(0, 20));
  });
});
