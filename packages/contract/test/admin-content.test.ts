import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  adminCreateCodeSchema,
  adminPermissionPresets,
  adminPermissions,
  adminPermissionsBodySchema,
  expiryDayEnd,
  redeemDisplayStatus,
  redeemMessages,
} from '../src/index.ts';

describe('admin redeem code display status', () => {
  const day = '2026-03-01';
  const end = expiryDayEnd(day);
  const code = { expiryDate: day, claimed: 0, stock: 5, isPublic: false };

  it('is Active until the last millisecond of the expiry day, Expired one millisecond later', () => {
    assert.equal(redeemDisplayStatus(code, Date.parse('2026-03-01T00:00:00Z')), 'Active');
    assert.equal(redeemDisplayStatus(code, end), 'Active');
    assert.equal(redeemDisplayStatus(code, end + 1), 'Expired');
  });

  it('decides in the spec order: Expired, Out of Stock, Public, Active', () => {
    const everything = { expiryDate: day, claimed: 5, stock: 5, isPublic: true };
    assert.equal(redeemDisplayStatus(everything, end + 1), 'Expired');
    assert.equal(redeemDisplayStatus(everything, end), 'Out of Stock');
    assert.equal(redeemDisplayStatus({ ...everything, claimed: 4 }, end), 'Public');
    assert.equal(redeemDisplayStatus({ ...everything, claimed: 4, isPublic: false }, end), 'Active');
    assert.equal(redeemDisplayStatus({ ...everything, expiryDate: null }, end + 1), 'Out of Stock');
    assert.equal(redeemDisplayStatus({ ...code, expiryDate: null }, Number.MAX_SAFE_INTEGER), 'Active');
  });
});

describe('admin code creation body', () => {
  it('treats an empty suffix or expiry as none, defaults isPublic, refuses amount or stock below 1', () => {
    assert.deepEqual(
      adminCreateCodeSchema.parse({ type: 'Slot', amount: 1, stock: 1, customSuffix: '', expiryDate: '' }),
      { type: 'Slot', amount: 1, stock: 1, customSuffix: undefined, expiryDate: undefined, isPublic: false },
    );
    const issue = (body: object) =>
      adminCreateCodeSchema.safeParse({ type: 'Slot', amount: 1, stock: 1, ...body }).error?.issues[0]?.message;
    assert.equal(issue({ amount: 0 }), redeemMessages.amountInvalid);
    assert.equal(issue({ stock: 0 }), redeemMessages.stockInvalid);
    assert.equal(issue({ code: 'HAND-PICKED' }) !== undefined, true, 'the panel never picks a code by hand');
  });
});

describe('admin permission presets and bodies', () => {
  it('has the four presets of section 6', () => {
    const preset = (name: string) => adminPermissionPresets.find((p) => p.name === name)?.permissions;
    assert.deepEqual(
      adminPermissionPresets.map((p) => p.name),
      ['No Permissions', 'Moderator', 'Support Agent', 'Manager'],
    );
    assert.deepEqual(preset('No Permissions'), []);
    assert.deepEqual([...(preset('Moderator') ?? [])].sort(), [
      'bans:view',
      'dashboard:view',
      'feedback:view',
      'logs:view',
      'servers:view',
      'users:view',
    ]);
    assert.deepEqual([...(preset('Support Agent') ?? [])].sort(), [
      'codes:view',
      'dashboard:view',
      'feedback:manage',
      'feedback:view',
      'servers:view',
      'users:manage',
      'users:view',
    ]);
    assert.deepEqual(preset('Manager'), adminPermissions);
  });

  it('keeps known permissions once, in the contract order, and refuses unknown ones', () => {
    assert.deepEqual(adminPermissionsBodySchema.parse({ permissions: ['logs:view', 'users:view', 'logs:view'] }), {
      permissions: ['users:view', 'logs:view'],
    });
    assert.equal(adminPermissionsBodySchema.safeParse({ permissions: ['root:all'] }).success, false);
    assert.equal(adminPermissionsBodySchema.safeParse({ permissions: 'users:view' }).success, false);
  });
});
