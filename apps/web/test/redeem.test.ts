import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PublicRedeemCode } from '@canopy/contract';
import { canRedeem, formatExpiryDay, oneAtATime } from '../src/features/redeem/redeem-view.ts';

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

  it('lets one redeem run at a time: a second submit is refused until the first is answered', () => {
    const guard = oneAtATime();
    assert.equal(guard.start(), true);
    assert.equal(guard.start(), false, 'a quick second Enter is ignored');
    assert.equal(guard.start(), false);
    guard.finish();
    assert.equal(guard.start(), true, 'the next code can be redeemed once the first is answered');
  });
});
