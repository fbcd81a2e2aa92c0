import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings, hostingMessages, type ServerStatus } from '@canopy/contract';
import {
  type ControlProfile,
  createControl,
  deleteControl,
  isTransitional,
  pendingStatusOf,
  powerControls,
} from '../src/features/dashboard/server-controls.ts';

const owner: ControlProfile = {
  isBanned: false,
  isAdmin: false,
  isCollaborator: false,
  collaboratorPermissions: [],
  storageUsedMB: 10,
  storageLimitMB: 256,
  availableSlot: 1,
};
const settings = defaultSettings;
const enabled = (status: ServerStatus | string, profile = owner, s = settings) => {
  const c = powerControls(status, profile, s);
  return { start: c.start.enabled, stop: c.stop.enabled, restart: c.restart.enabled };
};

describe('powerControls', () => {
  it('OFFLINE: start and restart, not stop', () => {
    assert.deepEqual(enabled('OFFLINE'), { start: true, stop: false, restart: true });
  });

  it('ONLINE: stop and restart, not start', () => {
    assert.deepEqual(enabled('ONLINE'), { start: false, stop: true, restart: true });
    assert.equal(powerControls('ONLINE', owner, settings).start.reason, null);
  });

  it('transitional statuses disable every action', () => {
    for (const status of ['STARTING', 'STOPPING', 'RESTARTING'])
      assert.deepEqual(enabled(status), { start: false, stop: false, restart: false }, status);
  });

  it('UNKNOWN leaves every action enabled', () => {
    assert.deepEqual(enabled('UNKNOWN'), { start: true, stop: true, restart: true });
  });

  it('full storage (used at or above the limit) disables start with its tooltip', () => {
    for (const used of [256, 300]) {
      const c = powerControls('OFFLINE', { ...owner, storageUsedMB: used }, settings);
      assert.deepEqual(c.start, { enabled: false, reason: hostingMessages.storageFull });
      assert.equal(c.restart.enabled, true);
    }
    assert.equal(powerControls('OFFLINE', { ...owner, storageUsedMB: 255.9 }, settings).start.enabled, true);
  });

  it('a banned account gets every action disabled with the ban tooltip, admin or not', () => {
    for (const isAdmin of [false, true]) {
      const c = powerControls('ONLINE', { ...owner, isBanned: true, isAdmin }, settings);
      for (const control of Object.values(c))
        assert.deepEqual(control, { enabled: false, reason: hostingMessages.bannedActions });
    }
  });

  it('disabled server actions block non-admins only', () => {
    const off = { ...settings, disableServerActions: true };
    for (const control of Object.values(powerControls('OFFLINE', owner, off)))
      assert.deepEqual(control, { enabled: false, reason: hostingMessages.actionsDisabled });
    assert.deepEqual(enabled('OFFLINE', { ...owner, isAdmin: true }, off), { start: true, stop: false, restart: true });
  });

  it('collaborators need server:actions', () => {
    const collaborator = { ...owner, isCollaborator: true };
    for (const control of Object.values(powerControls('ONLINE', collaborator, settings)))
      assert.deepEqual(control, { enabled: false, reason: 'You do not have permission to perform server actions.' });
    const allowed = { ...collaborator, collaboratorPermissions: ['server:actions'] };
    assert.deepEqual(enabled('ONLINE', allowed), { start: false, stop: true, restart: true });
  });
});

describe('createControl', () => {
  it('enabled with a slot', () => {
    assert.deepEqual(createControl(owner, settings), { enabled: true, reason: null });
  });
  it('no slot', () => {
    assert.deepEqual(createControl({ ...owner, availableSlot: 0 }, settings), {
      enabled: false,
      reason: hostingMessages.noSlots,
    });
    assert.equal(createControl({ ...owner, availableSlot: -1 }, settings).enabled, false);
  });
  it('creation disabled, admins bypass', () => {
    const off = { ...settings, disableServerCreation: true };
    assert.deepEqual(createControl(owner, off), { enabled: false, reason: hostingMessages.creationDisabled });
    assert.equal(createControl({ ...owner, isAdmin: true }, off).enabled, true);
  });
  it('banned comes first', () => {
    const c = createControl(
      { ...owner, isBanned: true, availableSlot: 0 },
      { ...settings, disableServerCreation: true },
    );
    assert.deepEqual(c, { enabled: false, reason: hostingMessages.bannedActions });
  });
});

describe('deleteControl', () => {
  it('owner only', () => {
    assert.deepEqual(deleteControl(owner), { enabled: true, reason: null });
    assert.deepEqual(deleteControl({ ...owner, isCollaborator: true }), {
      enabled: false,
      reason: hostingMessages.onlyOwnerDelete,
    });
  });
  it('not while banned', () => {
    assert.deepEqual(deleteControl({ ...owner, isBanned: true }), {
      enabled: false,
      reason: hostingMessages.bannedActions,
    });
  });
});

describe('action statuses', () => {
  it('each action sets its transitional status at once', () => {
    assert.equal(pendingStatusOf('start'), 'STARTING');
    assert.equal(pendingStatusOf('stop'), 'STOPPING');
    assert.equal(pendingStatusOf('restart'), 'RESTARTING');
  });
  it('isTransitional', () => {
    assert.deepEqual(['ONLINE', 'OFFLINE', 'STARTING', 'STOPPING', 'RESTARTING', 'UNKNOWN'].map(isTransitional), [
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});
