import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminPanelMessages, type ServerStatus } from '@canopy/contract';
import {
  type DeleteServerCalls,
  deleteFormError,
  deleteServerWithBan,
} from '../src/features/admin/servers/delete-server.ts';
import { anyTransitional, serverRowButtons } from '../src/features/admin/servers/server-row-actions.ts';

describe('serverRowButtons (admin document, section 4)', () => {
  const idle = (status: ServerStatus) => serverRowButtons(status, false);

  it('disables start when ONLINE or STARTING and stop when OFFLINE or STOPPING', () => {
    assert.deepEqual(idle('ONLINE'), { start: false, stop: true, restart: true, delete: true });
    assert.deepEqual(idle('OFFLINE'), { start: true, stop: false, restart: true, delete: true });
    assert.equal(idle('STARTING').start, false);
    assert.equal(idle('STOPPING').stop, false);
  });

  it('disables restart and delete (and the rest) while an action is pending', () => {
    const none = { start: false, stop: false, restart: false, delete: false };
    assert.deepEqual(serverRowButtons('ONLINE', true), none);
    assert.deepEqual(serverRowButtons('OFFLINE', true), none);
    for (const status of ['STARTING', 'STOPPING', 'RESTARTING'] as const) assert.deepEqual(idle(status), none);
  });

  it('lets an UNKNOWN server be started, stopped, restarted or deleted', () => {
    assert.deepEqual(idle('UNKNOWN'), { start: true, stop: true, restart: true, delete: true });
  });

  it('polls only while some row is transitional', () => {
    assert.equal(anyTransitional(undefined), false);
    assert.equal(anyTransitional([{ status: 'ONLINE' }, { status: 'OFFLINE' }]), false);
    assert.equal(anyTransitional([{ status: 'ONLINE' }, { status: 'RESTARTING' }]), true);
  });
});

/** Calls that record their order and answer or fail as told. */
function fakeCalls({ deleteFails = false, banFails = false, errorText = '' } = {}) {
  const log: string[] = [];
  const calls: DeleteServerCalls = {
    deleteServer: async (name) => {
      log.push(`delete ${name}`);
      if (deleteFails) throw new Error(errorText);
      return { message: `Server "${name}" deleted successfully.` };
    },
    banName: async (name, reason) => {
      log.push(`ban ${name} ${reason}`);
      if (banFails) throw new Error(errorText);
      return { message: `Server name ${name} is banned.` };
    },
  };
  return { log, calls };
}

describe('deleteServerWithBan (admin document, sections 4, 5 and 8)', () => {
  it('deletes first, then bans the name with the trimmed reason', async () => {
    const { log, calls } = fakeCalls();
    const outcome = await deleteServerWithBan({ name: 'Alpha', ban: true, reason: '  scam  ' }, calls);
    assert.deepEqual(log, ['delete Alpha', 'ban Alpha scam']);
    assert.equal(outcome.deleted, true);
    assert.deepEqual(
      outcome.toasts.map((t) => t.type),
      ['success', 'success'],
    );
  });

  it('posts no ban when the deletion fails, and shows the api error else the fallback', async () => {
    const withText = fakeCalls({ deleteFails: true, errorText: 'Server not found.' });
    const outcome = await deleteServerWithBan({ name: 'Alpha', ban: true, reason: 'scam' }, withText.calls);
    assert.deepEqual(withText.log, ['delete Alpha']);
    assert.deepEqual(outcome, { deleted: false, toasts: [{ type: 'error', text: 'Server not found.' }] });

    const bare = fakeCalls({ deleteFails: true });
    const fallback = await deleteServerWithBan({ name: 'Alpha', ban: true, reason: 'scam' }, bare.calls);
    assert.deepEqual(fallback.toasts, [{ type: 'error', text: adminPanelMessages.actionFailed }]);
  });

  it("keeps the deletion when the ban fails and toasts 'Failed to ban server name.'", async () => {
    const { log, calls } = fakeCalls({ banFails: true });
    const outcome = await deleteServerWithBan({ name: 'Alpha', ban: true, reason: 'scam' }, calls);
    assert.deepEqual(log, ['delete Alpha', 'ban Alpha scam']);
    assert.equal(outcome.deleted, true);
    assert.deepEqual(outcome.toasts[1], { type: 'error', text: 'Failed to ban server name.' });
  });

  it('sends nothing when the ban is ticked without a reason, and ignores the reason when it is not', async () => {
    assert.equal(deleteFormError({ ban: true, reason: '   ' }), 'A reason is required when banning the server name.');
    assert.equal(deleteFormError({ ban: false, reason: '' }), null);
    const blank = fakeCalls();
    assert.deepEqual(await deleteServerWithBan({ name: 'Alpha', ban: true, reason: ' ' }, blank.calls), {
      deleted: false,
      toasts: [],
    });
    assert.deepEqual(blank.log, []);

    const noBan = fakeCalls();
    await deleteServerWithBan({ name: 'Alpha', ban: false, reason: 'ignored' }, noBan.calls);
    assert.deepEqual(noBan.log, ['delete Alpha']);
  });
});
