// The admin settings save is conditional on the version the admin read (ADR 0035): two admins flipping different
// switches at once no longer undo each other's change; the later save is a 409 and the first one stands.
import assert from 'node:assert/strict';
import { before, beforeEach, it } from 'node:test';
import {
  defaultSettings,
  etagOf,
  versionedWriteMessages as m,
  type Settings,
  settingsResponseSchema,
  settingsSaveResponseSchema,
} from '@canopy/contract';
import { makeAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { sql } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

const conflict = { error: m.settingsChanged, code: 'version_conflict' };

describeEachDatabase('admin settings saves are conditional on the version read', (api) => {
  let first: Session;
  let second: Session;

  before(async () => {
    first = await signInRegistered(api());
    await makeAdmin(api(), first, 'super');
    second = await signInRegistered(api());
    await makeAdmin(api(), second, ['settings:manage', 'settings:view']);
  });

  // Each test starts from the default settings (none stored).
  beforeEach(() => sql(api(), 'DELETE FROM settings'));

  /** GET /admin/settings with its ETag (the harness answers status and body only). */
  const read = async (s: Session = first) => {
    const res = await fetch(`${api().url}/admin/settings`, { headers: { authorization: `Bearer ${s.sessionToken}` } });
    assert.equal(res.status, 200);
    return { etag: res.headers.get('etag'), body: settingsResponseSchema.parse(await res.json()) };
  };
  const save = (s: Session, body: unknown, headers?: Record<string, string>) =>
    api().request('POST', '/admin/settings', { token: s.sessionToken, body, headers });
  const stored = async (): Promise<Settings> => {
    const { version: _, ...settings } = (await read()).body;
    return settings;
  };
  const logCount = async () =>
    Number((await api().ctx.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM activity_logs'))?.n);

  it('GET answers the version in the body and as the ETag; a save answers the new one', async () => {
    const opened = await read();
    assert.match(opened.body.version, /^[0-9a-f]{32}$/);
    assert.equal(opened.etag, etagOf(opened.body.version));
    assert.deepEqual({ ...opened.body, version: undefined }, { ...defaultSettings, version: undefined });
    const on = { ...defaultSettings, disableShop: true };
    const saved = await save(first, { ...on, version: opened.body.version });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const answer = settingsSaveResponseSchema.parse(saved.body);
    assert.deepEqual(answer.settings, on);
    const now = await read();
    assert.equal(answer.version, now.body.version);
    assert.notEqual(now.body.version, opened.body.version);
  });

  it('a save on the version read before another admin’s save is 409 and keeps that save', async () => {
    const a = await read(first);
    const b = await read(second);
    assert.equal(a.body.version, b.body.version);
    // The first admin disables the shop; the second, on the copy it opened, turns maintenance on.
    const shop = await save(first, { ...defaultSettings, disableShop: true }, { 'if-match': a.etag ?? '' });
    assert.equal(shop.status, 200, JSON.stringify(shop.body));
    const count = await logCount();
    const stale = await save(second, { ...b.body, maintenance: true });
    assert.deepEqual([stale.status, stale.body], [409, conflict]);
    const staleHeader = await save(second, { ...defaultSettings, maintenance: true }, { 'if-match': b.etag ?? '' });
    assert.deepEqual([staleHeader.status, staleHeader.body], [409, conflict]);
    assert.deepEqual(await stored(), { ...defaultSettings, disableShop: true }, 'the first save stands');
    assert.equal(await logCount(), count, 'a refused save logs nothing');

    // Reload, then the change again: both switches are on.
    const reloaded = await read(second);
    const again = await save(second, { ...reloaded.body, maintenance: true });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(await stored(), { ...defaultSettings, disableShop: true, maintenance: true });
  });

  it('two saves of the same version at once: exactly one wins, and the other changes nothing', async () => {
    for (let round = 0; round < 4; round++) {
      await sql(api(), 'DELETE FROM settings');
      const { body, etag } = await read();
      const bodies: Settings[] = [
        { ...defaultSettings, disableShop: true },
        { ...defaultSettings, disableNewbieKit: true },
      ];
      // One names the version in the body, the other as If-Match (the two ways a client may).
      const answers = await Promise.all([
        save(first, { ...bodies[0], version: body.version }),
        save(second, bodies[1], { 'if-match': etag ?? '' }),
      ]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], JSON.stringify(answers));
      const won = answers.findIndex((r) => r.status === 200);
      assert.deepEqual(answers[1 - won]?.body, conflict);
      assert.deepEqual(await stored(), bodies[won]);
    }
  });

  it('a save naming no version writes as before; malformed or disagreeing versions are 400', async () => {
    const opened = await read();
    assert.equal((await save(first, { ...defaultSettings, disableShop: true })).status, 200);
    // Without a version nothing is compared: this is the spec's client, which sends the settings only.
    const blind = await save(second, { ...defaultSettings, maintenance: true });
    assert.equal(blind.status, 200, JSON.stringify(blind.body));
    assert.deepEqual(await stored(), { ...defaultSettings, maintenance: true });

    const now = await read();
    const refused = [
      await save(first, defaultSettings, { 'if-match': 'a, b' }),
      await save(first, { ...defaultSettings, version: 'not-a-version' }),
      await save(first, { ...defaultSettings, version: now.body.version }, { 'if-match': etagOf(opened.body.version) }),
    ];
    assert.deepEqual(
      refused.map((r) => r.status),
      [400, 400, 400],
    );
    assert.deepEqual(refused[2]?.body, { error: m.versionsDisagree, code: 'version_mismatch' });
    // If-Match compares strongly (RFC 9110): a weak tag of the current version still never matches.
    const weak = await save(first, defaultSettings, { 'if-match': `W/${etagOf(now.body.version)}` });
    assert.deepEqual([weak.status, weak.body], [412, { error: m.weakIfMatch, code: 'precondition_failed' }]);
    assert.deepEqual(await stored(), { ...defaultSettings, maintenance: true }, 'a refused save changes nothing');
  });
});
