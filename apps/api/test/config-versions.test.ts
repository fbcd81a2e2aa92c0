// Whole-file saves of the Configuration page (newbie kit, custom items) are conditional on the version the page
// read (issue 21, item 16; ADR 0035): another panel user's save in between is a 409, not silently undone.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { etagOf, versionedWriteMessages as m } from '@canopy/contract';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const kit = (Gemss: number) => ({ ITEMS: [{ Gemss, Coin: 0, Seasonals_Token: 0, items: [[2, 5]] }] });
const item = (ID: number, Name: string) => ({ ID, Name });

describeEachDatabase('configuration saves are conditional on the version read', (api) => {
  let owner: Session;
  const path = (p: string) => `/users/${owner.user.id}/server${p}`;
  const call = (method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
    api().request(method, path(p), { token: owner.sessionToken, body, headers });
  /** A GET with its ETag (the harness answers status and body only). */
  const read = async (p: string) => {
    const res = await fetch(`${api().url}${path(p)}`, { headers: { authorization: `Bearer ${owner.sessionToken}` } });
    assert.equal(res.status, 200);
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
    return { etag: res.headers.get('etag'), body: (await res.json()) as any };
  };

  before(async () => {
    owner = await signInRegistered(api());
    // The server stays stopped: a saved kit applies at its next start, and nothing restarts under the test.
    const server = `cver${api().dialect[0]}${process.pid % 1000}`;
    assert.equal((await call('POST', '', { serverName: server })).status, 201);
  });

  it('newbie kit: a save on a stale version is 409 and keeps the other save; the latest version saves', async () => {
    const first = await read('/newbie-kit');
    assert.match(first.body.version, /^[0-9a-f]{32}$/);
    assert.equal(first.etag, etagOf(first.body.version));
    // Two editors opened the kit; the first saves (If-Match, as the page sends it).
    const saved = await call('PUT', '/newbie-kit', kit(100), { 'if-match': first.etag ?? '' });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    // The second saves the copy it read: with If-Match, or its version sent back in the body.
    const stale = await call('PUT', '/newbie-kit', kit(999), { 'if-match': first.etag ?? '' });
    assert.deepEqual([stale.status, stale.body], [409, { error: m.newbieKitChanged, code: 'version_conflict' }]);
    const staleBody = await call('PUT', '/newbie-kit', { ...kit(999), version: first.body.version });
    assert.equal(staleBody.status, 409);
    const now = await read('/newbie-kit');
    assert.equal(now.body.ITEMS[0].Gemss, 100, 'the first save stands');
    assert.notEqual(now.body.version, first.body.version);
    const again = await call('PUT', '/newbie-kit', { ...kit(300), version: now.body.version });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal((await read('/newbie-kit')).body.ITEMS[0].Gemss, 300);
    const bad = await call('PUT', '/newbie-kit', kit(1), { 'if-match': 'a, b' });
    assert.equal(bad.status, 400);
    assert.equal((await read('/newbie-kit')).body.ITEMS[0].Gemss, 300, 'a refused save changes nothing');
  });

  it('newbie kit: two saves of the same version at once, exactly one wins', async () => {
    const { etag } = await read('/newbie-kit');
    const answers = await Promise.all(
      [11, 22].map((gems) => call('PUT', '/newbie-kit', kit(gems), { 'if-match': etag ?? '' })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
    const won = answers.findIndex((a) => a.status === 200);
    assert.equal((await read('/newbie-kit')).body.ITEMS[0].Gemss, [11, 22][won]);
  });

  it('custom items: an item added since the read is not dropped by a stale save', async () => {
    const first = await read('/item-config');
    assert.equal(first.etag, etagOf(first.body.version));
    const one = await call('PUT', '/item-config', { items: [item(1000, 'First')] }, { 'if-match': first.etag ?? '' });
    assert.equal(one.status, 200, JSON.stringify(one.body));
    const stale = await call('PUT', '/item-config', { items: [item(1001, 'Other')] }, { 'if-match': first.etag ?? '' });
    assert.deepEqual([stale.status, stale.body], [409, { error: m.customItemsChanged, code: 'version_conflict' }]);
    const now = await read('/item-config');
    assert.deepEqual(
      now.body.items.map((i: { Name: string }) => i.Name),
      ['First'],
    );
    const both = await Promise.all(
      ['A', 'B'].map((n) => call('PUT', '/item-config', { items: [item(1002, n)] }, { 'if-match': now.etag ?? '' })),
    );
    assert.deepEqual(both.map((a) => a.status).sort(), [200, 409]);
  });
});
