import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PublicRedeemCode } from '@canopy/contract';
import { canRedeem, formatExpiryDay, oneAtATime, sortPublicCodes } from '../src/features/redeem/redeem-view.ts';

describe('redeem page helpers', () => {
  it("shows a code's last day in en-GB form, as the UTC day it is", () => {
    assert.equal(formatExpiryDay('2026-03-01'), '01/03/2026');
    assert.equal(formatExpiryDay('2026-12-31'), '31/12/2026');
    assert.equal(formatExpiryDay(null), 'No expiry');
  });

  it('offers Redeem on available codes only', () => {
    const code: PublicRedeemCode = {
      code: 'A',
      reward: '1 Slot',
      status: 'available',
      stock: { claimed: 0, total: 1 },
      expiryDate: null,
    };
    assert.equal(canRedeem(code), true);
    for (const status of ['claimed', 'out_of_stock', 'expired'] as const)
      assert.equal(canRedeem({ ...code, status }), false, status);
  });

  it('lists available codes first, then claimed, out of stock and expired, keeping the order within each', () => {
    const code = (name: string, status: PublicRedeemCode['status']): PublicRedeemCode => ({
      code: name,
      reward: '1 Slot',
      status,
      stock: { claimed: 0, total: 1 },
      expiryDate: null,
    });
    const fromApi = [
      code('E1', 'expired'),
      code('O1', 'out_of_stock'),
      code('A1', 'available'),
      code('C1', 'claimed'),
      code('E2', 'expired'),
      code('A2', 'available'),
      code('O2', 'out_of_stock'),
      code('C2', 'claimed'),
    ];
    assert.deepEqual(
      sortPublicCodes(fromApi).map((c) => c.code),
      ['A1', 'A2', 'C1', 'C2', 'O1', 'O2', 'E1', 'E2'],
    );
    assert.equal(fromApi[0]?.code, 'E1', "the api's list is not changed");
  });

  it('lets one redeem run at a time: a second submit is refused until the first is answered', () => {
    const guard = oneAtATime();
    assert.equal(guard.start(), true);
    assert.equal(guard.start(), false, 'a quick second Enter is ignored');
    assert.equal(guard.start(), false);
    guard.finish();
    assert.equal(guard.start(), true, 'the next code can be redeemed once the first is answered');
  });
});
