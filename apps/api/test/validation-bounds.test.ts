import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { defaultWorldMeta, MAX_CUSTOM_ITEMS, MAX_EXTRA_DROPS, worldShapeMessages } from '@canopy/contract';
import { jsonBodyMessages, MAX_JSON_DEPTH } from '../src/http/json-body.ts';
import { ownerWithServer, type signIn, signInAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';

// Issue 21 items 1, 2 and 9: bodies that are small but cost validation dearly are refused with a precise 400,
// from their depth or their lengths, and change nothing.

type Session = Awaited<ReturnType<typeof signIn>>;

/** A request whose body is sent as these exact bytes. */
async function send(api: TestApi, method: string, path: string, token: string, text: string) {
  const res = await fetch(api.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: text,
  });
  return { status: res.status, body: await res.json() };
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
// 5,000 nested arrays in 10 KB: a recursive walk of it overflowed the stack (500).
const deep = nested(5000);

describeEachDatabase('bodies that cost validation: depth and lengths', (api) => {
  let root: Session;
  let target: Session;
  let owner: Session;
  before(async () => {
    root = await signInAdmin(api(), 'super');
    target = await signInRegistered(api());
    owner = await ownerWithServer(api(), `bounds${api().dialect[0]}${process.pid % 1000}`);
  });
  const userRow = () =>
    api().ctx.db.get<{ is_banned: number; account_type: string }>(
      'SELECT is_banned, account_type FROM users WHERE id = ?',
      [target.user.id],
    );

  it('refuses 5,000 nested arrays with a 400 on every route, as a whole body or inside a field, changing nothing', async () => {
    const before = await userRow();
    const server = `/users/${owner.user.id}/server`;
    const calls: [string, string, Session, string][] = [
      ['POST', `/admin/users/${target.user.id}/ban`, root, deep],
      ['POST', `/admin/users/${target.user.id}/ban`, root, `{"reason":${deep},"duration":"7d"}`],
      ['POST', `/admin/users/${target.user.id}/set-paid`, root, deep],
      ['POST', `/admin/users/${target.user.id}/set-paid`, root, `{"duration":${deep}}`],
      ['POST', '/admin/users/bulk-action', root, `{"userIds":["${target.user.id}"],"action":"ban","banInfo":${deep}}`],
      ['POST', `/admin/users/${target.user.id}/credit`, root, `{"amount":${deep},"reason":"r"}`],
      ['PUT', `/users/${target.user.id}/settings`, target, `{"x":${deep}}`],
      // Routes whose body is parsed on a worker thread.
      ['PUT', `${server}/item-config`, owner, `{"items":${deep}}`],
      ['PUT', `${server}/worlds/START`, owner, `{"blocks":${deep}}`],
    ];
    for (const [method, path, session, text] of calls) {
      const res = await send(api(), method, path, session.sessionToken, text);
      assert.deepEqual(res, { status: 400, body: { error: jsonBodyMessages.tooDeep, code: 'body_too_deep' } }, path);
    }
    assert.deepEqual(await userRow(), before);
  });

  it('accepts nesting up to the limit: the depth check refuses nothing legitimate', async () => {
    // At the limit the body is read and goes on to validation (a 400 from the schema, not the depth check).
    const res = await send(
      api(),
      'POST',
      `/admin/users/${target.user.id}/ban`,
      root.sessionToken,
      nested(MAX_JSON_DEPTH),
    );
    assert.equal(res.status, 400);
    assert.notEqual(res.body.code, 'body_too_deep');
    const item = { ID: 1000, Extra_Drops: [[2, 1]] };
    const saved = await send(
      api(),
      'PUT',
      `/users/${owner.user.id}/server/item-config`,
      owner.sessionToken,
      JSON.stringify({ items: [item] }),
    );
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  });

  it('refuses 1,000 custom items with every field of the wrong type by the first one, writing nothing', async () => {
    const path = `/users/${owner.user.id}/server/item-config`;
    const before = (await api().request('GET', path, { token: owner.sessionToken })).body;
    const wrong = (i: number) => ({
      ID: `id${i}`,
      Name: i,
      rarity: 'rare',
      Gems: 'x',
      Extra_Drops: Array.from({ length: MAX_EXTRA_DROPS }, () => ['a', 'b']),
      property_gacha: 'x',
    });
    const body = JSON.stringify({ items: Array.from({ length: MAX_CUSTOM_ITEMS }, (_, i) => wrong(i)) });
    const res = await send(api(), 'PUT', path, owner.sessionToken, body);
    assert.deepEqual(res, {
      status: 400,
      body: { error: 'Item 1: Item id must be a whole number.', code: 'validation' },
    });
    assert.deepEqual((await api().request('GET', path, { token: owner.sessionToken })).body, before);
  });

  it('refuses a world whose tile list does not fit its size at the api, before asking the engine', async () => {
    // The server is not running: a body the api did not check itself would get 409 'offline' instead.
    const path = `/users/${owner.user.id}/server/worlds/START`;
    const zeros = await send(
      api(),
      'PUT',
      path,
      owner.sessionToken,
      JSON.stringify({ blocks: new Array(1_700_000).fill(0) }),
    );
    assert.deepEqual(zeros, {
      status: 400,
      body: { error: worldShapeMessages.tooManyBlocks(1_700_000), code: 'validation' },
    });
    const world = { ...defaultWorldMeta(4, 3), owner: '', blocks: new Array(40_000).fill(0) };
    const long = await send(api(), 'PUT', path, owner.sessionToken, JSON.stringify(world));
    assert.deepEqual(long, {
      status: 400,
      body: { error: worldShapeMessages.blocksCount(12, 40_000), code: 'validation' },
    });
    const tile = { fg: 0, bg: 0, o: 0, l: 0, fl: 0, if_c: 0 };
    const fits = await send(
      api(),
      'PUT',
      path,
      owner.sessionToken,
      JSON.stringify({ ...world, blocks: new Array(12).fill(tile) }),
    );
    assert.equal(fits.status, 409, 'a world that fits reaches the engine, which is offline');
    assert.equal(fits.body.code, 'server_offline');
  });
});
