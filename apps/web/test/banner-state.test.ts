import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dashboardTexts, defaultSettings } from '@canopy/contract';
import {
  afterDeletion,
  banDetails,
  deletionNotice,
  noServerTimeHint,
  showCrashLoopBanner,
  showStorageBanner,
} from '../src/features/dashboard/banner-state.ts';
import { formatDate, formatDateTime } from '../src/lib/format.ts';
import { graceNotice } from '../src/lib/server-time-warning.ts';

const NOW = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
const H = 3600 * 1000;
const D = 24 * H;
const iso = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const timed = (expiresIn: number) => ({
  permanent: false,
  expiresAt: iso(expiresIn),
  graceEndsAt: iso(expiresIn + 3 * D),
  pendingMs: 0,
});
const withServer = (serverTime: ReturnType<typeof timed>) => ({ serverTime, serverOwned: 'Grove' });

describe('graceNotice', () => {
  it("shows the day of the exact instant the scheduler deletes at, in the user's time zone", () => {
    const notice = graceNotice(withServer(timed(-(3 * D) + 2 * D + 23 * H)), NOW); // deletion 2d 23h away
    assert.deepEqual(notice, { endsOn: formatDate(new Date(NOW.getTime() + 2 * D + 23 * H)), over: false });
    assert.match(notice?.endsOn ?? '', /^\d{2}\/\d{2}\/\d{4}$/);
  });
  it('turns due once the grace period has ended but the server is not deleted yet', () => {
    assert.equal(graceNotice(withServer(timed(-3 * D - 1000)), NOW)?.over, true);
  });
  it('null once the server is gone (the scheduler deleted it)', () => {
    assert.equal(graceNotice({ serverTime: timed(-3 * D - 1000), serverOwned: 'No Server' }, NOW), null);
  });
  it('null while the time runs, is permanent or pending', () => {
    assert.equal(graceNotice(withServer(timed(H)), NOW), null);
    const never = { permanent: true, expiresAt: null, graceEndsAt: null, pendingMs: 0 };
    assert.equal(graceNotice({ serverTime: never, serverOwned: 'Grove' }, NOW), null);
    const pending = { permanent: false, expiresAt: null, graceEndsAt: null, pendingMs: D };
    assert.equal(graceNotice({ serverTime: pending, serverOwned: 'No Server' }, NOW), null);
  });
});

describe('showCrashLoopBanner', () => {
  it('only while the guard holds an offline server', () => {
    assert.equal(showCrashLoopBanner({ serverCrashLoop: true }, 'OFFLINE'), true);
    assert.equal(showCrashLoopBanner({ serverCrashLoop: true }, 'STARTING'), false);
    assert.equal(showCrashLoopBanner({ serverCrashLoop: false }, 'OFFLINE'), false);
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

describe('deletionNotice', () => {
  const at = '2026-11-20T09:30:00.000Z';
  it('tells when and why the last server was deleted', () => {
    const notice = (by: 'owner' | 'admin' | 'expiry') =>
      deletionNotice({ serverOwned: 'No Server', lastServerDeletion: { name: 'Grove', at, by } });
    assert.deepEqual(notice('owner'), { name: 'Grove', when: formatDateTime(at), why: 'You deleted it.' });
    assert.equal(notice('admin')?.why, 'An administrator deleted it.');
    assert.equal(notice('expiry')?.why, 'Its server time ran out and the 3-day grace period ended.');
  });
  it('null without a deletion, and once there is a server again', () => {
    assert.equal(deletionNotice({ serverOwned: 'No Server', lastServerDeletion: null }), null);
    const old = { name: 'Grove', at, by: 'owner' as const };
    assert.equal(deletionNotice({ serverOwned: 'Meadow', lastServerDeletion: old }), null);
  });
});

// Issue 21 item 13: after a deletion the notice and the Server Time card say what this user can do now.
const user = {
  isBanned: false,
  isAdmin: false,
  isCollaborator: false,
  collaboratorPermissions: [],
  storageUsedMB: 0,
  storageLimitMB: 256,
  availableSlot: 1,
};
const shopOff = { ...defaultSettings, disableShop: true };

describe('afterDeletion', () => {
  it('invites to create a server while time is left', () => {
    assert.equal(afterDeletion(user, defaultSettings, false), 'create');
    assert.equal(afterDeletion(user, shopOff, false), 'create');
  });
  it('sends a user whose time ran out to Renew & Shop, or to Redeem Code while the shop is disabled for them', () => {
    assert.equal(afterDeletion(user, defaultSettings, true), 'renew');
    assert.equal(afterDeletion(user, shopOff, true), 'redeem');
    assert.equal(afterDeletion({ ...user, isAdmin: true }, shopOff, true), 'renew', 'admins bypass the switch');
  });
  it('says nothing more when a server could not be created anyway', () => {
    assert.equal(afterDeletion({ ...user, isBanned: true }, defaultSettings, true), null);
    assert.equal(afterDeletion({ ...user, isBanned: true }, defaultSettings, false), null);
    assert.equal(afterDeletion({ ...user, availableSlot: 0 }, defaultSettings, true), null);
    assert.equal(afterDeletion(user, { ...defaultSettings, disableServerCreation: true }, false), null);
  });
});

describe('noServerTimeHint', () => {
  const noServer = { serverOwned: 'No Server', isCollaborator: false, isBanned: false, isAdmin: false };
  it('tells a user without a server whose time ran out how to get time again', () => {
    assert.equal(noServerTimeHint(noServer, defaultSettings, true), dashboardTexts.noTimeRenew);
    assert.equal(noServerTimeHint(noServer, shopOff, true), dashboardTexts.noTimeRedeem);
    assert.equal(noServerTimeHint({ ...noServer, isBanned: true }, defaultSettings, true), dashboardTexts.noTime);
  });
  it('null while time is left, and with a server (the grace banner speaks then)', () => {
    assert.equal(noServerTimeHint(noServer, defaultSettings, false), null);
    assert.equal(noServerTimeHint({ ...noServer, serverOwned: 'Grove' }, defaultSettings, true), null);
  });
});
