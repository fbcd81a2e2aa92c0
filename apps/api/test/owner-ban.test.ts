import assert from 'node:assert/strict';
import { it } from 'node:test';
import { collaboratorPermissions, serverPageMessages as p } from '@canopy/contract';
import { consoleOf } from './support/console-socket.ts';
import { addCollaborator, ownerWithServer, signInRegistered } from './support/factories.ts';
import { describeEachDatabase } from './support/harness.ts';
import { sql } from './support/servers.ts';
import { until } from './support/until.ts';

describeEachDatabase("a ban of the owner covers the owner's server", (api) => {
  it("refuses every write of a collaborator to a banned owner's server, lets them read, and lifts with the ban", async () => {
    const name = `ob${process.pid % 10000}${api().dialect[0]}`;
    const owner = await ownerWithServer(api(), name);
    const helper = await signInRegistered(api());
    await addCollaborator(api(), owner.user.id, helper.user.id, [...collaboratorPermissions]);
    const call = (method: string, path: string, body?: unknown) =>
      api().request(method, `/users/${helper.user.id}/server${path}`, { token: helper.sessionToken, body });
    assert.equal((await call('POST', '/creator-list', { growId: 'Before1' })).status, 200, 'allowed before the ban');

    // A ban that already ran out does not count.
    await sql(api(), 'UPDATE users SET is_banned = 1, ban_expires = ? WHERE id = ?', [
      api().clock.now - 1000,
      owner.user.id,
    ]);
    assert.equal((await call('POST', '/creator-list', { growId: 'Expired1' })).status, 200, 'an expired ban');

    await sql(api(), 'UPDATE users SET is_banned = 1, ban_expires = NULL WHERE id = ?', [owner.user.id]);
    const writes: [string, string, unknown?][] = [
      ['POST', '/creator-list', { growId: 'During1' }],
      ['DELETE', '/creator-list/Before1'],
      ['POST', '/farm-delay', { amount: 1500 }],
      ['PUT', '/newbie-kit', { ITEMS: [{ Gemss: 5, Coin: 0, Seasonals_Token: 0, items: [] }] }],
      ['PUT', '/item-config', { items: [] }],
      ['POST', '/backup'],
      ['DELETE', '/backup'],
      ['POST', '/backup/restore'],
      ['POST', `/${name}/start`],
      ['POST', `/${name}/stop`],
      ['POST', `/${name}/restart`],
      ['PUT', '/worlds/START', { name: 'START' }],
      ['DELETE', '/worlds/START'],
      ['PUT', '/players/someone', { name: 'someone' }],
      ['DELETE', '/players/someone'],
      ['POST', '/players/someone/unban'],
    ];
    for (const [method, path, body] of writes) {
      const refused = await call(method, path, body);
      assert.equal(refused.status, 403, `${method} ${path}: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error, p.ownerBanned, `${method} ${path}`);
    }
    const creators = await call('GET', '/creator-list');
    assert.equal(creators.status, 200, 'reads stay allowed');
    assert.deepEqual(creators.body.creatorList, ['Before1', 'Expired1'], 'the refusals changed nothing');
    assert.equal((await call('GET', '/newbie-kit')).status, 200);
    assert.equal((await call('GET', '/backup')).status, 200);

    // The console stays open to watch; a command is refused with the same text, and named for the view.
    const c = await consoleOf(api(), helper.user.id, helper.sessionToken);
    c.send('say hello');
    await until(() => c.messages.some((m) => m.type === 'error'), 'the refusal');
    assert.deepEqual(c.messages.find((m) => m.type === 'error')?.payload, {
      message: p.ownerBanned,
      code: 'forbidden',
      command: 'say hello',
    });
    c.ws.close(1000);

    // The owner themself is refused by their own ban, with the spec's banned texts.
    const own = await api().request('POST', `/users/${owner.user.id}/server/creator-list`, {
      token: owner.sessionToken,
      body: { growId: 'Owner1' },
    });
    assert.equal(own.status, 403);
    assert.equal(own.body.error, p.bannedConfiguration);

    await sql(api(), 'UPDATE users SET is_banned = 0 WHERE id = ?', [owner.user.id]);
    assert.equal((await call('POST', '/creator-list', { growId: 'After1' })).status, 200, 'the unban lifts it');
  });
});
