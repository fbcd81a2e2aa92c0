import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redeemMessages } from '@canopy/contract';
import { newCodeDefaults, newCodeRequest } from '../src/features/admin/codes/new-code-form.ts';

const NOW = Date.parse('2026-11-22T22:00:00Z');

describe('admin create-code form', () => {
  it('starts at amount 1 and stock 1, private, and sends no empty suffix or expiry', () => {
    assert.equal(newCodeDefaults.amount, 1);
    assert.equal(newCodeDefaults.stock, 1);
    const result = newCodeRequest(newCodeDefaults, NOW);
    assert.ok(result.ok);
    // What goes over the wire: the empty optional fields are left out.
    assert.deepEqual(JSON.parse(JSON.stringify(result.body)), { type: 'Slot', amount: 1, stock: 1, isPublic: false });
  });

  it('sends the suffix and expiry date when given', () => {
    const result = newCodeRequest(
      {
        ...newCodeDefaults,
        type: 'ServerTime',
        amount: 7,
        customSuffix: 'XMAS',
        expiryDate: '2030-12-31',
        isPublic: true,
      },
      NOW,
    );
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
    const zero = newCodeRequest({ ...newCodeDefaults, amount: 0, stock: 0 }, NOW);
    assert.equal(zero.ok, false);
    assert.deepEqual(!zero.ok && zero.errors, {
      amount: redeemMessages.amountInvalid,
      stock: redeemMessages.stockInvalid,
    });
    const emptied = newCodeRequest({ ...newCodeDefaults, amount: Number.NaN }, NOW);
    assert.deepEqual(!emptied.ok && emptied.errors, { amount: redeemMessages.amountInvalid });
  });

  it('refuses a bad suffix and an impossible date', () => {
    const bad = newCodeRequest({ ...newCodeDefaults, customSuffix: 'no spaces!', expiryDate: '2030-02-30' }, NOW);
    assert.deepEqual(!bad.ok && bad.errors, {
      customSuffix: redeemMessages.suffixInvalid,
      expiryDate: redeemMessages.dateInvalid,
    });
  });

  it('refuses an expiry day that has already ended, and takes today until its end (UTC)', () => {
    const past = newCodeRequest({ ...newCodeDefaults, expiryDate: '2020-01-01' }, NOW);
    assert.deepEqual(!past.ok && past.errors, { expiryDate: redeemMessages.datePast });
    const yesterday = newCodeRequest({ ...newCodeDefaults, expiryDate: '2026-11-21' }, NOW);
    assert.deepEqual(!yesterday.ok && yesterday.errors, { expiryDate: redeemMessages.datePast });
    assert.equal(newCodeRequest({ ...newCodeDefaults, expiryDate: '2026-11-22' }, NOW).ok, true);
  });
});
