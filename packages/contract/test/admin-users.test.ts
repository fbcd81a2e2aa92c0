import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ADMIN_MAX_DAYS,
  ADMIN_MAX_STORAGE_MB,
  creditAdjustSchema,
  creditMessages,
  expiryChangeSchema,
  adminUserMessages as m,
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
