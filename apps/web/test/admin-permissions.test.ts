import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminPermissions } from '@canopy/contract';
import {
  applyPreset,
  groupPermissions,
  matchingPreset,
  normalizePermissions,
  rowActions,
  togglePermission,
} from '../src/features/admin/permissions/permission-logic.ts';

describe('admin permission editor logic', () => {
  it('groups every permission under its area, in the spec order of areas', () => {
    const groups = groupPermissions();
    assert.deepEqual(
      groups.map((g) => g.area),
      ['dashboard', 'users', 'servers', 'codes', 'feedback', 'bans', 'logs', 'settings'],
    );
    assert.deepEqual(groups.find((g) => g.area === 'users')?.permissions, [
      'users:view',
      'users:manage',
      'users:bulk_actions',
    ]);
    assert.equal(groups.flatMap((g) => g.permissions).length, adminPermissions.length);
  });

  it('applies each preset as the spec defines it, replacing the selection', () => {
    assert.deepEqual(applyPreset('No Permissions'), []);
    assert.deepEqual(applyPreset('Moderator'), [
      'dashboard:view',
      'users:view',
      'servers:view',
      'feedback:view',
      'bans:view',
      'logs:view',
    ]);
    assert.deepEqual(applyPreset('Support Agent'), [
      'dashboard:view',
      'users:view',
      'users:manage',
      'servers:view',
      'codes:view',
      'feedback:view',
      'feedback:manage',
    ]);
    assert.deepEqual(applyPreset('Manager'), [...adminPermissions]);
    assert.deepEqual(applyPreset('Nope'), []);
  });

  it('names the preset a selection matches, whatever its order, and none once it differs', () => {
    assert.equal(matchingPreset([]), 'No Permissions');
    const moderator = applyPreset('Moderator');
    assert.equal(matchingPreset([...moderator].reverse()), 'Moderator');
    assert.equal(matchingPreset(togglePermission(moderator, 'codes:view', true)), null);
    assert.equal(matchingPreset([...adminPermissions]), 'Manager');
  });

  it('toggles one permission, keeping the contract order and no duplicates', () => {
    const on = togglePermission(['logs:view'], 'dashboard:view', true);
    assert.deepEqual(on, ['dashboard:view', 'logs:view']);
    assert.deepEqual(togglePermission(on, 'dashboard:view', true), ['dashboard:view', 'logs:view']);
    assert.deepEqual(togglePermission(on, 'logs:view', false), ['dashboard:view']);
    assert.deepEqual(normalizePermissions(['x:y', 'bans:view', 'bans:view']), ['bans:view']);
  });
});

describe('admin row actions', () => {
  const self = '100000000000000001';
  it('offers promote, edit and remove for an admin, and only demote for a super admin', () => {
    assert.deepEqual(rowActions({ id: '200000000000000002', isSuperAdmin: false }, self), {
      actions: ['promoteSuper', 'edit', 'remove'],
      disabled: false,
    });
    assert.deepEqual(rowActions({ id: '200000000000000002', isSuperAdmin: true }, self), {
      actions: ['demoteSuper'],
      disabled: false,
    });
  });

  it("disables every action on the caller's own row", () => {
    assert.equal(rowActions({ id: self, isSuperAdmin: true }, self).disabled, true);
    assert.equal(rowActions({ id: self, isSuperAdmin: false }, self).disabled, true);
  });
});
