import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings, messages, type ServerStatus, serverPageMessages, webRoutes } from '@canopy/contract';
import { navAccess } from '../src/features/shell/nav-access.ts';
import { lockedPageReason, type ServerPageUser, serverPageGate } from '../src/lib/server-page-gate.ts';

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

describe('lockedPageReason (a locked page opened directly)', () => {
  const banned = { isAdmin: false, isBanned: true, isCollaborator: false, serverOwned: 'Grove' };
  const reasonAt = (path: string, user = banned) => {
    const route = webRoutes.find((r) => r.path === path);
    assert.ok(route, path);
    const access = navAccess(route, user, defaultSettings);
    assert.ok(access.visible && access.locked, `${path} is locked`);
    return lockedPageReason(path, user, access.reason);
  };

  it("gives a banned user each server page's own 'Your account is banned. You cannot ...' text", () => {
    assert.equal(reasonAt('/worlds'), serverPageMessages.bannedWorlds);
    assert.equal(reasonAt('/players'), serverPageMessages.bannedPlayers);
    assert.equal(reasonAt('/console'), serverPageMessages.bannedConsole);
    assert.equal(reasonAt('/backup'), serverPageMessages.bannedBackups);
    assert.equal(reasonAt('/configuration'), serverPageMessages.bannedConfiguration);
    for (const path of ['/worlds', '/players', '/console', '/backup', '/configuration'])
      assert.match(reasonAt(path), /^Your account is banned\. You cannot /, path);
  });

  it('keeps the generic text on other pages and for other locks', () => {
    assert.equal(reasonAt('/items'), messages.bannedPage);
    const user = { ...banned, isBanned: false };
    assert.equal(lockedPageReason('/backup', user, messages.featureDisabled), messages.featureDisabled);
  });
});
