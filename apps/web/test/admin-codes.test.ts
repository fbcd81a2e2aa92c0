import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redeemMessages } from '@canopy/contract';
import { newCodeDefaults, newCodeRequest } from '../src/features/admin/codes/new-code-form.ts';

describe('admin create-code form', () => {
  it('starts at amount 1 and stock 1, private, and sends no empty suffix or expiry', () => {
    assert.equal(newCodeDefaults.amount, 1);
    assert.equal(newCodeDefaults.stock, 1);
    const result = newCodeRequest(newCodeDefaults);
    assert.ok(result.ok);
    // What goes over the wire: the empty optional fields are left out.
    assert.deepEqual(JSON.parse(JSON.stringify(result.body)), { type: 'Slot', amount: 1, stock: 1, isPublic: false });
  });

  it('sends the suffix and expiry date when given', () => {
    const result = newCodeRequest({
      ...newCodeDefaults,
      type: 'ServerTime',
      amount: 7,
      customSuffix: 'XMAS',
      expiryDate: '2030-12-31',
      isPublic: true,
    });
    assert.ok(result.ok);
    assert.deepEqual(result.body, {
      type: 'ServerTime',
      amount: 7,
      stock: 1,
      customSuffix: 'XMAS',
      expiryDate: '2030-12-31',
      isPublic: true,
    });
  });

  it('refuses an amount or stock under 1 or emptied, with the contract texts', () => {
    const zero = newCodeRequest({ ...newCodeDefaults, amount: 0, stock: 0 });
    assert.equal(zero.ok, false);
    assert.deepEqual(!zero.ok && zero.errors, {
      amount: redeemMessages.amountInvalid,
      stock: redeemMessages.stockInvalid,
    });
    const emptied = newCodeRequest({ ...newCodeDefaults, amount: Number.NaN });
    assert.deepEqual(!emptied.ok && emptied.errors, { amount: redeemMessages.amountInvalid });
  });

  it('refuses a bad suffix and an impossible date', () => {
    const bad = newCodeRequest({ ...newCodeDefaults, customSuffix: 'no spaces!', expiryDate: '2030-02-30' });
    assert.deepEqual(!bad.ok && bad.errors, {
      customSuffix: redeemMessages.suffixInvalid,
      expiryDate: redeemMessages.dateInvalid,
    });
  });
});
