import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  backupMessages as b,
  configurationMessages as c,
  configAppliedMessage,
  configSaveResponseSchema,
  hostingMessages,
  customItemsMessages as t,
} from '@canopy/contract';
import { addCollaborator, ownerWithServer, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;
const PLAIN = { ID: 900, Name: 'Plain' };
const KIT = { ITEMS: [{ Gemss: 250, Coin: 3, Seasonals_Token: 0, items: [[2, 4]] }] };

describeEachDatabase('configuration saves apply themselves; restores say who can start', (api) => {
  let owner: Session;
  let helper: Session;
  let name = '';
  let serverId = '';
  const call = (s: Session, method: string, path: string, body?: unknown) =>
    api().request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
  const status = () => api().ctx.servers.runtime.state(serverId).status;
  /** A whole-file save names the version it read: the GET's ETag, as If-Match. */
  const save = async (s: Session, path: string, body: unknown) => {
    const url = `${api().url}/users/${s.user.id}/server${path}`;
    const read = await fetch(url, { headers: { authorization: `Bearer ${s.sessionToken}` } });
    const headers = { 'if-match': read.headers.get('etag') ?? '' };
    return api().request('PUT', `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body, headers });
  };
  const restartsLogged = async () =>
    (
      await api().ctx.db.all<{ details: string }>(
        "SELECT details FROM activity_logs WHERE action = 'Server restart' AND details LIKE ?",
        [`${name}:%`],
      )
    ).map((r) => r.details);

  before(async () => {
    name = `ap${process.pid % 10000}${api().dialect[0]}`;
    owner = await ownerWithServer(api(), name);
    helper = await signInRegistered(api());
    // Configuration and backups, not power actions: the restart that applies a save must not need them.
    await addCollaborator(api(), owner.user.id, helper.user.id, ['config:manage', 'backups:manage']);
    serverId = (await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]))?.id ?? '';
  });

  it('leaves a stopped server stopped: the save answers that the change applies at its next start', async () => {
    const saved = await save(helper, '/newbie-kit', KIT);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(configSaveResponseSchema.parse(saved.body), {
      message: c.newbieKitUpdated,
      applied: 'next_start',
    });
    assert.equal(status(), 'OFFLINE');
    const row = await api().ctx.db.get<{ desired_state: string }>('SELECT desired_state FROM servers WHERE id = ?', [
      serverId,
    ]);
    assert.equal(row?.desired_state, 'stopped', 'nothing will start it either');
    assert.deepEqual(await restartsLogged(), []);
  });

  it("restarts a running server as part of a collaborator's save, under config:manage alone", async () => {
    assert.equal((await call(owner, 'POST', `/${name}/start`)).status, 202);
    await waitForStatus(api(), name, 'ONLINE');
    const own = await call(helper, 'POST', `/${name}/restart`);
    assert.equal(own.status, 403, 'the collaborator still may not restart by hand');
    assert.equal(own.body.error, hostingMessages.noActionPermission);

    const saved = await save(helper, '/newbie-kit', { ITEMS: [{ ...KIT.ITEMS[0], Gemss: 300 }] });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body, { message: c.newbieKitUpdated, applied: 'restarting', version: saved.body.version });
    assert.equal(status(), 'RESTARTING', 'the restart is under way when the answer comes');
    await waitForStatus(api(), name, 'ONLINE');
    // The console says why, before the restart's '> stop'.
    const lines = api().ctx.servers.runtime.consoleHistory(serverId);
    const why = lines.findIndex((l) => l.endsWith(`[INFO] ${c.restartToApply('newbie kit', helper.growId)}`));
    const stop = lines.findIndex((l, i) => i > why && /> stop/.test(l));
    assert.ok(why >= 0 && stop > why, `the reason comes before '> stop':\n${lines.slice(-15).join('\n')}`);
    assert.equal(c.restartToApply('newbie kit', 'Bob'), 'Restarting to apply the newbie kit saved by Bob.');

    const items = await save(helper, '/item-config', { items: [PLAIN] });
    assert.equal(items.status, 200, JSON.stringify(items.body));
    assert.deepEqual(items.body, { message: t.updated, applied: 'restarting', version: items.body.version });
    await waitForStatus(api(), name, 'ONLINE');
    assert.deepEqual(await restartsLogged(), [`${name}: to apply: newbie kit`, `${name}: to apply: custom items`]);
  });

  it('does not restart for a save that changes nothing (saving is no restart button)', async () => {
    await waitForStatus(api(), name, 'ONLINE');
    const restarts = (await restartsLogged()).length;
    const kit = { ITEMS: [{ ...KIT.ITEMS[0], Gemss: 300 }] };
    const same = await save(helper, '/newbie-kit', kit);
    assert.equal(same.status, 200, JSON.stringify(same.body));
    assert.equal(same.body.applied, 'unchanged');
    assert.equal(configAppliedMessage(same.body.applied), 'Nothing changed, so the server was not restarted.');
    const items = await save(helper, '/item-config', { items: [PLAIN] });
    assert.equal(items.body.applied, 'unchanged', JSON.stringify(items.body));
    assert.equal(status(), 'ONLINE');
    assert.equal((await restartsLogged()).length, restarts);
    // A real change still restarts.
    const changed = await save(helper, '/newbie-kit', { ITEMS: [{ ...KIT.ITEMS[0], Gemss: 301 }] });
    assert.equal(changed.body.applied, 'restarting');
    await waitForStatus(api(), name, 'ONLINE');
  });

  it('tells a collaborator who may not start the server who can, after a restore', async () => {
    const created = await call(helper, 'POST', '/backup');
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const restored = await call(helper, 'POST', '/backup/restore');
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.deepEqual(restored.body, { message: b.restoredAskOwner });
    await waitForStatus(api(), name, 'OFFLINE');

    await sql(api(), 'UPDATE collaborators SET permissions = ? WHERE user_id = ?', [
      JSON.stringify(['backups:manage', 'server:actions']),
      helper.user.id,
    ]);
    const again = await call(helper, 'POST', '/backup/restore');
    assert.deepEqual(again.body, { message: b.restored }, 'one who may start it is told to');
    assert.deepEqual((await call(owner, 'POST', '/backup/restore')).body, { message: b.restored });
  });
});
