import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN_MAX_DAYS,
  ADMIN_MAX_STORAGE_MB,
  accountChangeRefusal,
  creditAdjustSchema,
  creditMessages,
  expiryChangeSchema,
  adminUserMessages as m,
  messages,
  setPaidSchema,
  setStorageSchema,
  slotChangeSchema,
} from '../src/index.ts';

const error = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('admin user change schemas', () => {
  it('take a non-negative whole amount, as a number or digits, and one of the three actions', () => {
    for (const schema of [expiryChangeSchema, slotChangeSchema]) {
      assert.deepEqual(schema.parse({ action: 'set', amount: '0' }), { action: 'set', amount: 0 });
      assert.deepEqual(schema.parse({ action: 'remove', amount: 12 }), { action: 'remove', amount: 12 });
      for (const amount of [-1, 2.5, 'x', '', ' ', null, undefined, Number.NaN, '1e3'])
        assert.equal(error(schema.safeParse({ action: 'add', amount })), m.amountInvalid, String(amount));
      assert.equal(error(schema.safeParse({ action: 'Add', amount: 1 })), m.actionInvalid);
    }
    assert.equal(expiryChangeSchema.safeParse({ action: 'add', amount: ADMIN_MAX_DAYS }).success, true);
    assert.equal(error(expiryChangeSchema.safeParse({ action: 'add', amount: ADMIN_MAX_DAYS + 1 })), m.amountInvalid);
  });

  it('take a positive, bounded storage limit', () => {
    assert.deepEqual(setStorageSchema.parse({ limitMB: '512' }), { limitMB: 512 });
    assert.equal(setStorageSchema.safeParse({ limitMB: ADMIN_MAX_STORAGE_MB }).success, true);
    for (const limitMB of [0, -1, 1.5, 'big', ADMIN_MAX_STORAGE_MB + 1, undefined])
      assert.equal(error(setStorageSchema.safeParse({ limitMB })), m.storageInvalid, String(limitMB));
  });

  it('require a Paid duration and a non-zero whole credit amount', () => {
    for (const duration of [undefined, '', '   ', 3])
      assert.equal(error(setPaidSchema.safeParse({ duration })), m.paidDurationRequired, String(duration));
    assert.deepEqual(setPaidSchema.parse({ duration: ' 30d ' }), { duration: '30d' });
    assert.deepEqual(creditAdjustSchema.parse({ amount: '-20', reason: ' refund ' }), {
      amount: -20,
      reason: 'refund',
    });
    for (const amount of [0, 0.5, 'lots', 2e9, undefined])
      assert.equal(error(creditAdjustSchema.safeParse({ amount })), creditMessages.amountInvalid, String(amount));
  });
});

describe('accountChangeRefusal (who may change whose account)', () => {
  const user = { id: 'u', isAdmin: false, isSuperAdmin: false };
  const admin = { id: 'a', isAdmin: true, isSuperAdmin: false };
  const admin2 = { id: 'a2', isAdmin: true, isSuperAdmin: false };
  const sup = { id: 's', isAdmin: true, isSuperAdmin: true };
  const sup2 = { id: 's2', isAdmin: true, isSuperAdmin: true };

  it('lets a super admin change admins and users, and an admin change users', () => {
    for (const [actor, target] of [
      [sup, admin],
      [sup, user],
      [admin, user],
    ] as const)
      assert.equal(accountChangeRefusal(actor, target), null, `${actor.id} → ${target.id}`);
  });

  it('refuses their own account, and one of an equal or higher role, saying why', () => {
    assert.equal(accountChangeRefusal(admin, admin), m.cannotChangeSelf);
    assert.equal(accountChangeRefusal(sup, sup), m.cannotChangeSelf);
    assert.equal(accountChangeRefusal(admin, admin2), m.adminOutranks);
    assert.equal(accountChangeRefusal(admin, sup), m.superAdminOutranks);
    assert.equal(accountChangeRefusal(sup, sup2), m.superAdminOutranks);
    assert.equal(accountChangeRefusal(user, { ...user, id: 'u2' }), messages.missingPermission);
  });
});
