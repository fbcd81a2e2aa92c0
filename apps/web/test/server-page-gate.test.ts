import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ServerStatus, serverPageMessages } from '@canopy/contract';
import { type ServerPageUser, serverPageGate } from '../src/lib/server-page-gate.ts';

const texts = {
  banned: serverPageMessages.bannedWorlds,
  noPermission: serverPageMessages.noPermissionWorlds,
  offline: serverPageMessages.worldsOffline,
};
const owner: ServerPageUser = {
  isBanned: false,
  isCollaborator: false,
  collaboratorPermissions: [],
  serverOwned: 'Grove',
};
const gate = (status: ServerStatus | undefined, user: ServerPageUser = owner) =>
  serverPageGate(user, 'worlds:manage', status, texts);

describe('serverPageGate', () => {
  it('loads only when the server is ONLINE', () => {
    assert.deepEqual(gate('ONLINE'), { kind: 'ready' });
  });

  it('shows the status message of every other status', () => {
    assert.deepEqual(gate('OFFLINE'), {
      kind: 'blocked',
      reason: 'offline',
      message: serverPageMessages.worldsOffline,
    });
    for (const status of ['STARTING', 'RESTARTING'] as const)
      assert.deepEqual(gate(status), {
        kind: 'blocked',
        reason: 'starting',
        message: serverPageMessages.serverStarting,
      });
    assert.deepEqual(gate('STOPPING'), {
      kind: 'blocked',
      reason: 'stopping',
      message: serverPageMessages.serverStopping,
    });
    assert.equal(gate('UNKNOWN').kind, 'blocked');
  });

  it('uses the page-specific offline text', () => {
    const players = serverPageGate(owner, 'players:manage', 'OFFLINE', { ...texts, offline: 'players offline' });
    assert.deepEqual(players, { kind: 'blocked', reason: 'offline', message: 'players offline' });
  });

  it('waits for the status feed before deciding on the status', () => {
    assert.deepEqual(gate(undefined), { kind: 'loading' });
  });

  it('asks for a server first when there is none, whatever the feed says', () => {
    const none = { ...owner, serverOwned: 'No Server' };
    assert.deepEqual(gate(undefined, none), {
      kind: 'blocked',
      reason: 'no-server',
      message: serverPageMessages.noServer,
    });
    assert.equal(gate('ONLINE', { ...owner, serverOwned: '' }).kind, 'blocked');
  });

  it('refuses collaborators without the permission, and lets those with it in', () => {
    const helper = { ...owner, isCollaborator: true, collaboratorPermissions: ['players:manage'] };
    assert.deepEqual(gate('ONLINE', helper), {
      kind: 'blocked',
      reason: 'no-permission',
      message: serverPageMessages.noPermissionWorlds,
    });
    assert.deepEqual(gate('ONLINE', { ...helper, collaboratorPermissions: ['worlds:manage'] }), { kind: 'ready' });
  });

  it('refuses banned users before anything else', () => {
    const banned = { ...owner, isBanned: true, serverOwned: 'No Server' };
    assert.deepEqual(gate('ONLINE', banned), {
      kind: 'blocked',
      reason: 'banned',
      message: serverPageMessages.bannedWorlds,
    });
  });
});
