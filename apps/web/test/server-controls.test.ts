import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dashboardTexts, defaultSettings, hostingMessages, type ServerStatus } from '@canopy/contract';
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
  it('UNKNOWN (the status feed failed): every power action disabled with the reason, no guess', () => {
    const c = powerControls('UNKNOWN', owner, settings);
    for (const action of ['start', 'stop', 'restart'] as const) {
      assert.equal(c[action].enabled, false, action);
      assert.equal(c[action].reason, hostingMessages.statusUnknown, action);
    }
  });

  it('once the server time ran out, start and restart carry the refusal; stop stays possible', () => {
    const offline = powerControls('OFFLINE', owner, settings, true);
    assert.deepEqual(offline.start, { enabled: false, reason: hostingMessages.serverTimeExpired });
    assert.deepEqual(offline.restart, { enabled: false, reason: hostingMessages.serverTimeExpired });
    const online = powerControls('ONLINE', owner, settings, true);
    assert.equal(online.stop.enabled, true);
    assert.equal(online.restart.enabled, false);
  });

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

  it('full storage (used at or above the limit) disables start and restart with its tooltip, not stop', () => {
    for (const used of [256, 300]) {
      const c = powerControls('ONLINE', { ...owner, storageUsedMB: used }, settings);
      assert.deepEqual(c.restart, { enabled: false, reason: hostingMessages.storageFull });
      assert.equal(c.stop.enabled, true);
      const offline = powerControls('OFFLINE', { ...owner, storageUsedMB: used }, settings);
      assert.deepEqual(offline.start, { enabled: false, reason: hostingMessages.storageFull });
    }
    const below = powerControls('ONLINE', { ...owner, storageUsedMB: 255.9 }, settings);
    assert.equal(below.restart.enabled, true);
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
  it('refused once the server time ran out: a new server would be deleted with it', () => {
    assert.deepEqual(createControl(owner, settings, true), {
      enabled: false,
      reason: hostingMessages.serverTimeOverCreate,
    });
    // Renewing is locked while the shop is disabled (not for admins): the reason names only a code then.
    const shopOff = { ...settings, disableShop: true };
    assert.equal(createControl(owner, shopOff, true).reason, dashboardTexts.createNeedsCode);
    assert.equal(
      createControl({ ...owner, isAdmin: true }, shopOff, true).reason,
      hostingMessages.serverTimeOverCreate,
    );
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
