import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createRedeemCodeSchema,
  expiryDayEnd,
  expiryDayOf,
  isValidDay,
  redeemMessages as m,
  redeemCodeKey,
  redeemRequestSchema,
  redeemStatus,
  rewardText,
} from '../src/index.ts';

describe('redeem contract', () => {
  it('words rewards in singular and plural; ServerTime amounts are days', () => {
    assert.equal(rewardText('Slot', 1), '1 Slot');
    assert.equal(rewardText('Slot', 3), '3 Slots');
    assert.equal(rewardText('ServerTime', 1), '1 Day Server Time');
    assert.equal(rewardText('ServerTime', 7), '7 Days Server Time');
  });

  it('decides the status for one user: own claim, then expiry, then stock', () => {
    const end = expiryDayEnd('2026-03-01');
    const code = { claimedByUser: false, claimed: 2, stock: 5, expiresAt: end };
    assert.equal(redeemStatus(code, end), 'available', 'the last millisecond of the day still counts');
    assert.equal(redeemStatus(code, end + 1), 'expired');
    assert.equal(redeemStatus({ ...code, claimed: 5 }, end), 'out_of_stock');
    assert.equal(redeemStatus({ ...code, claimed: 5 }, end + 1), 'expired');
    assert.equal(redeemStatus({ ...code, claimedByUser: true, claimed: 5 }, end + 1), 'claimed');
    assert.equal(redeemStatus({ ...code, expiresAt: null }, end + 10 ** 12), 'available');
  });

  it('takes the end of the expiry day in UTC and reads the day back', () => {
    assert.equal(new Date(expiryDayEnd('2026-03-01')).toISOString(), '2026-03-01T23:59:59.999Z');
    assert.equal(expiryDayOf(expiryDayEnd('2026-12-31')), '2026-12-31');
  });

  it('accepts only real days', () => {
    assert.equal(isValidDay('2028-02-29'), true);
    assert.equal(isValidDay('2026-02-29'), false);
    assert.equal(isValidDay('2026-13-01'), false);
    assert.equal(isValidDay('1/2/2026'), false);
  });

  it('matches codes without regard to case and surrounding spaces', () => {
    assert.equal(redeemCodeKey('  ab-Cd1 '), 'AB-CD1');
  });

  it('trims the request and words its refusals', () => {
    assert.deepEqual(redeemRequestSchema.parse({ code: '  X1 ' }), { code: 'X1' });
    const issue = (body: unknown) => {
      const r = redeemRequestSchema.safeParse(body);
      assert.equal(r.success, false);
      return r.error?.issues[0]?.message;
    };
    assert.equal(issue({ code: '   ' }), m.codeRequired);
    assert.equal(issue({}), m.codeRequired);
    assert.equal(issue({ code: 'A'.repeat(65) }), m.codeTooLong);
  });

  it('validates new codes: amount and stock at least 1, real date, suffix and code shape', () => {
    const base = { type: 'Slot', amount: 1, stock: 1, isPublic: true } as const;
    assert.equal(createRedeemCodeSchema.safeParse(base).success, true);
    const issue = (patch: Record<string, unknown>) =>
      createRedeemCodeSchema.safeParse({ ...base, ...patch }).error?.issues[0]?.message;
    assert.equal(issue({ amount: 0 }), m.amountInvalid);
    assert.equal(issue({ amount: 1.5 }), m.amountInvalid);
    assert.equal(issue({ stock: 0 }), m.stockInvalid);
    assert.equal(issue({ expiryDate: '2026-02-30' }), m.dateInvalid);
    assert.equal(issue({ customSuffix: 'no spaces' }), m.suffixInvalid);
    assert.equal(issue({ code: 'x' }), m.codeInvalid);
  });
});
