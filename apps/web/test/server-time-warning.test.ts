import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerTime } from '@canopy/contract';
import { formatDateTime } from '../src/lib/format.ts';
import {
  ENDING_SOON_MS,
  endingSoon,
  isServerPage,
  keepServerWay,
  msUntilEndingSoonChanges,
  msUntilServerTimeBannersChange,
} from '../src/lib/server-time-warning.ts';

const NOW = new Date(Date.UTC(2026, 10, 21, 12, 0, 0));
const M = 60 * 1000;
const H = 60 * M;
const D = 24 * H;
const iso = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const timed = (expiresIn: number): ServerTime => ({
  permanent: false,
  expiresAt: iso(expiresIn),
  graceEndsAt: iso(expiresIn + 3 * D),
  pendingMs: 0,
});
const withServer = (serverTime: ServerTime) => ({ serverTime, serverOwned: 'Grove' });

describe('endingSoon', () => {
  it('warns from just under 24 h left until the time runs out, with the exact instant it does', () => {
    assert.equal(ENDING_SOON_MS, D);
    assert.equal(endingSoon(withServer(timed(D)), NOW), null, 'exactly 24 h left: not yet');
    assert.equal(endingSoon(withServer(timed(D + M)), NOW), null);
    assert.deepEqual(endingSoon(withServer(timed(D - 1)), NOW), { endsAt: formatDateTime(iso(D - 1)) });
    assert.deepEqual(endingSoon(withServer(timed(1000)), NOW), { endsAt: formatDateTime(iso(1000)) });
  });
  it('goes once the time is out: the grace banner takes over', () => {
    assert.equal(endingSoon(withServer(timed(0)), NOW), null);
    assert.equal(endingSoon(withServer(timed(-H)), NOW), null);
  });
  it('never warns for permanent or pending time, nor without a server', () => {
    const permanent = { permanent: true, expiresAt: null, graceEndsAt: null, pendingMs: 0 };
    const pending = { permanent: false, expiresAt: null, graceEndsAt: null, pendingMs: H };
    assert.equal(endingSoon(withServer(permanent), NOW), null);
    assert.equal(endingSoon(withServer(pending), NOW), null);
    assert.equal(endingSoon({ serverTime: timed(H), serverOwned: 'No Server' }, NOW), null);
  });
});

describe('msUntilEndingSoonChanges', () => {
  it('counts to the start of the warning, then to the end of the time, then stops', () => {
    assert.equal(msUntilEndingSoonChanges(timed(3 * D), NOW), 2 * D);
    assert.equal(msUntilEndingSoonChanges(timed(D), NOW), 0, 'appears right now');
    assert.equal(msUntilEndingSoonChanges(timed(5 * H), NOW), 5 * H);
    assert.equal(msUntilEndingSoonChanges(timed(-H), NOW), null);
    assert.equal(
      msUntilEndingSoonChanges({ permanent: true, expiresAt: null, graceEndsAt: null, pendingMs: 0 }, NOW),
      null,
    );
  });
});

describe('msUntilServerTimeBannersChange', () => {
  it('follows the warning, the end of the time and the end of grace, then stops', () => {
    assert.equal(msUntilServerTimeBannersChange(timed(3 * D), NOW), 2 * D, 'the warning starts first');
    assert.equal(msUntilServerTimeBannersChange(timed(5 * H), NOW), 5 * H, 'then the time runs out');
    assert.equal(msUntilServerTimeBannersChange(timed(-H), NOW), 3 * D - H, 'then grace ends');
    assert.equal(msUntilServerTimeBannersChange(timed(-3 * D - H), NOW), null);
  });
});

describe('isServerPage', () => {
  it('is true for the pages that manage the server, not for the account pages or the dashboard', () => {
    for (const path of ['/worlds', '/players', '/collaborators', '/backup', '/configuration', '/console'])
      assert.equal(isServerPage(path), true, path);
    for (const path of ['/dashboard', '/profile', '/renew', '/redeem-code', '/items'])
      assert.equal(isServerPage(path), false, path);
  });
});

describe('keepServerWay', () => {
  const owner = { isCollaborator: false, isBanned: false, isAdmin: false };
  it('sends an owner to Renew & Shop, or to Redeem Code while the shop is disabled for them', () => {
    assert.equal(keepServerWay(owner, { disableShop: false }), 'renew');
    assert.equal(keepServerWay(owner, { disableShop: true }), 'redeem');
    assert.equal(
      keepServerWay({ ...owner, isAdmin: true }, { disableShop: true }),
      'renew',
      'admins bypass the switch',
    );
  });
  it('links nowhere for a collaborator or a banned account (both pages are locked to them)', () => {
    assert.equal(keepServerWay({ ...owner, isCollaborator: true }, { disableShop: false }), 'ask-owner');
    assert.equal(keepServerWay({ ...owner, isBanned: true }, { disableShop: true }), 'banned');
  });
});
