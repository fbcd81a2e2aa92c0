import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LOGIN_FAILURES_PER_NAME } from '../src/players/login.ts';
import { type RunningEngine, startEngine, tearDown } from './support/engine-process.ts';

// The gateway's login page checks and creates GrowIDs through these two routes (ADR 0026).
describe('control API: /game/login and /game/register', () => {
  let engine: RunningEngine;
  before(async () => {
    engine = await startEngine();
  });
  after(() => tearDown(engine));

  it('register creates a GrowID once; a taken name (any case) is 409, a bad name or password 400', async () => {
    assert.deepEqual(await engine.request('POST', '/game/register', { name: 'Planter7', password: 'seeds123' }), {
      status: 201,
      body: { name: 'Planter7' },
    });
    const again = await engine.request('POST', '/game/register', { name: 'planter7', password: 'other' });
    assert.equal(again.status, 409);
    assert.equal((await engine.request('POST', '/game/register', { name: 'no way', password: 'x' })).status, 400);
    assert.equal((await engine.request('POST', '/game/register', { name: 'Valid1', password: '' })).status, 400);
    assert.equal((await engine.request('POST', '/game/register', { name: 'Valid1' })).status, 400);
    assert.equal((await engine.request('POST', '/game/register', 'not json')).status, 400);
    const player = await engine.request('GET', '/players/Planter7');
    assert.equal(player.status, 200, 'the created GrowID is an ordinary player of the Player Database');
  });

  it('login answers the stored name for the right password and one 401 for wrong password or unknown name', async () => {
    assert.deepEqual(await engine.request('POST', '/game/login', { name: 'PLANTER7', password: 'seeds123' }), {
      status: 200,
      body: { name: 'Planter7' },
    });
    const wrong = await engine.request('POST', '/game/login', { name: 'Planter7', password: 'seeds124' });
    const unknown = await engine.request('POST', '/game/login', { name: 'Nobody42', password: 'seeds123' });
    assert.equal(wrong.status, 401);
    assert.deepEqual(unknown, wrong, 'an unknown name is not told apart from a wrong password');
    assert.equal((await engine.request('POST', '/game/login', { name: 'x', password: 'y' })).status, 400);
  });

  it('a banned GrowID with the right password is 403; with a wrong one still 401', async () => {
    await engine.request('POST', '/game/register', { name: 'Banme1', password: 'pw123456' });
    assert.equal((await engine.request('DELETE', '/players/Banme1')).status, 200);
    const banned = await engine.request('POST', '/game/login', { name: 'Banme1', password: 'pw123456' });
    assert.equal(banned.status, 403);
    assert.match(banned.body.error, /banned/);
    assert.equal((await engine.request('POST', '/game/login', { name: 'Banme1', password: 'nope' })).status, 401);
  });

  it('after too many wrong passwords a name is refused (429) even with the right one; other names are not', async () => {
    await engine.request('POST', '/game/register', { name: 'Target1', password: 'right-one' });
    for (let i = 0; i < LOGIN_FAILURES_PER_NAME; i++)
      assert.equal((await engine.request('POST', '/game/login', { name: 'Target1', password: `w${i}` })).status, 401);
    assert.equal((await engine.request('POST', '/game/login', { name: 'target1', password: 'right-one' })).status, 429);
    const other = await engine.request('POST', '/game/login', { name: 'Planter7', password: 'seeds123' });
    assert.equal(other.status, 200);
  });

  it('the routes need the control secret like every other', async () => {
    const res = await engine.request('POST', '/game/login', { name: 'Planter7', password: 'seeds123' }, 'wrong');
    assert.equal(res.status, 401);
    assert.match(res.body.error, /bearer/);
  });
});
