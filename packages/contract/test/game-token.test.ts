import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { GAME_TOKEN_TTL_MS, gameServerKey, readGameToken, signGameToken } from '../src/game-token.ts';

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
