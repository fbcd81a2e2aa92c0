import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { banDetails, graceEndsOn, showStorageBanner } from '../src/features/dashboard/banner-state.ts';

describe('graceEndsOn', () => {
  it('reads the grace period end date (day first)', () => {
    assert.equal(graceEndsOn('Grace period ends 05/03/2026'), '05/03/2026');
    assert.equal(graceEndsOn('grace period ends 5/3/2026'), '05/03/2026');
  });
  it('null outside a grace period', () => {
    for (const text of ['', 'permanent', '2026-05-01T00:00:00.000Z', null, undefined])
      assert.equal(graceEndsOn(text), null, String(text));
  });
  it('shows an unreadable date as given', () => {
    assert.equal(graceEndsOn('Grace period ends soon-ish'), 'soon-ish');
  });
});

describe('banDetails', () => {
  it('null when not banned', () => {
    assert.equal(banDetails({ isBanned: false, banInfo: null }), null);
  });
  it('reason, who banned and the end', () => {
    const info = {
      reason: 'Spam',
      bannedBy: 'Mod1',
      bannedAt: '2026-01-01T00:00:00Z',
      expires: '2026-02-01T00:00:00Z',
    };
    assert.deepEqual(banDetails({ isBanned: true, banInfo: info }), {
      reason: 'Spam',
      bannedBy: 'Mod1',
      expires: '2026-02-01T00:00:00Z',
    });
  });
  it("defaults who banned to 'System'", () => {
    const info = { reason: '', bannedBy: '', bannedAt: '', expires: null };
    assert.equal(banDetails({ isBanned: true, banInfo: info })?.bannedBy, 'System');
    assert.equal(banDetails({ isBanned: true, banInfo: null })?.bannedBy, 'System');
  });
});

describe('showStorageBanner', () => {
  it('at or above the limit', () => {
    assert.equal(showStorageBanner({ storageUsedMB: 255, storageLimitMB: 256 }), false);
    assert.equal(showStorageBanner({ storageUsedMB: 256, storageLimitMB: 256 }), true);
    assert.equal(showStorageBanner({ storageUsedMB: 0, storageLimitMB: 0 }), true);
  });
});
