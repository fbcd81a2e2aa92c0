import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminBanMessages, adminUserLabels, adminUserMessages } from '@canopy/contract';
import { buildBulkBody, bulkErrorTexts, bulkFieldsOf } from '../src/features/admin/users/bulk/bulk-body.ts';
import { serverTimeText } from '../src/features/admin/users/server-time-text.ts';
import {
  parseBan,
  parseCredit,
  parsePaid,
  parseStorage,
  parseUserChange,
} from '../src/features/admin/users/user-forms.ts';
import { pagePartlySelected, pageSelected, toggleOne, togglePage } from '../src/features/admin/users/user-selection.ts';

describe('admin Users tab: selection across pages', () => {
  it('toggles one user in and out without touching the others', () => {
    const a = toggleOne(new Set(['x']), 'y');
    assert.deepEqual([...a].sort(), ['x', 'y']);
    assert.deepEqual([...toggleOne(a, 'x')], ['y']);
  });

  it('the header box selects the whole page, keeps other pages, and clears the page when all were in', () => {
    const otherPage = new Set(['p2-user']);
    const page = ['a', 'b', 'c'];
    const all = togglePage(toggleOne(otherPage, 'a'), page);
    assert.deepEqual([...all].sort(), ['a', 'b', 'c', 'p2-user']);
    assert.equal(pageSelected(all, page), true);
    const cleared = togglePage(all, page);
    assert.deepEqual([...cleared], ['p2-user']);
  });

  it('reports a partly selected page, and an empty page as not selected', () => {
    assert.equal(pagePartlySelected(new Set(['a']), ['a', 'b']), true);
    assert.equal(pagePartlySelected(new Set(['a', 'b']), ['a', 'b']), false);
    assert.equal(pageSelected(new Set(['a']), []), false);
  });
});

describe('admin Users tab: bulk body', () => {
  const form = { action: 'ban' as const, reason: ' Harassment ', duration: '7d', amount: '' };

  it('ban sends banInfo with the trimmed reason and no amount', () => {
    const built = buildBulkBody(['1', '2'], form);
    assert.deepEqual(built, {
      ok: true,
      body: { userIds: ['1', '2'], action: 'ban', banInfo: { reason: 'Harassment', duration: '7d' } },
    });
  });

  it('ban without reason or duration is refused with the spec text; a malformed duration with the syntax text', () => {
    for (const f of [
      { ...form, reason: ' ' },
      { ...form, duration: '' },
    ]) {
      assert.deepEqual(buildBulkBody(['1'], f), { ok: false, error: adminBanMessages.reasonAndDurationRequired });
    }
    for (const duration of ['7x', '7 days']) {
      assert.deepEqual(buildBulkBody(['1'], { ...form, reason: 'x', duration }), {
        ok: false,
        error: adminUserMessages.durationInvalid,
      });
    }
  });

  it('time and slot actions send a whole non-negative amount; others are refused', () => {
    assert.deepEqual(buildBulkBody(['1'], { ...form, action: 'addTime', amount: '5' }), {
      ok: true,
      body: { userIds: ['1'], action: 'addTime', amount: 5 },
    });
    assert.deepEqual(buildBulkBody(['1'], { ...form, action: 'setSlots', amount: '0' }).ok, true);
    for (const amount of ['', '-1', '1.5', 'ten', '99999']) {
      assert.deepEqual(buildBulkBody(['1'], { ...form, action: 'removeSlots', amount }), {
        ok: false,
        error: adminBanMessages.amountInvalid,
      });
    }
  });

  it('unban sends only the users; no selection is refused', () => {
    assert.deepEqual(buildBulkBody(['1'], { ...form, action: 'unban' }), {
      ok: true,
      body: { userIds: ['1'], action: 'unban' },
    });
    assert.deepEqual(buildBulkBody([], { ...form, action: 'unban' }), {
      ok: false,
      error: adminBanMessages.bulkUsersRequired,
    });
  });

  it('names the fields of each action, time in days', () => {
    assert.equal(bulkFieldsOf('ban'), 'ban');
    assert.equal(bulkFieldsOf('unban'), 'none');
    assert.equal(bulkFieldsOf('removeTime'), 'days');
    assert.equal(bulkFieldsOf('addSlots'), 'slots');
  });

  it('one error toast per failed user', () => {
    assert.deepEqual(
      bulkErrorTexts([
        { userId: '42', name: 'Grow12', error: 'Admins cannot be banned.' },
        { userId: '43', name: null, error: 'User not found.' },
        { userId: '', name: null, error: 'User not found.' },
      ]),
      ['Grow12: Admins cannot be banned.', '43: User not found.', 'User not found.'],
    );
  });
});

describe('admin Users tab: manage-user validation', () => {
  it('time and slot changes take a non-negative whole number', () => {
    assert.deepEqual(parseUserChange('expiry', 'add', ' 5 '), { ok: true, body: { action: 'add', amount: 5 } });
    assert.deepEqual(parseUserChange('slot', 'set', '0'), { ok: true, body: { action: 'set', amount: 0 } });
    for (const amount of ['', '-2', '2.5', 'x']) {
      assert.deepEqual(parseUserChange('expiry', 'remove', amount), {
        ok: false,
        error: adminUserMessages.amountInvalid,
      });
    }
  });

  it('storage limit must be a positive whole number', () => {
    assert.deepEqual(parseStorage('512'), { ok: true, body: { limitMB: 512 } });
    for (const v of ['', '0', '-5', '1.5']) {
      assert.deepEqual(parseStorage(v), { ok: false, error: adminUserMessages.storageInvalid });
    }
  });

  it('Set Paid needs a duration; ban needs reason and duration', () => {
    assert.deepEqual(parsePaid(' '), { ok: false, error: adminUserMessages.paidDurationRequired });
    assert.deepEqual(parsePaid('30d'), { ok: true, body: { duration: '30d' } });
    assert.deepEqual(parsePaid('5x'), { ok: false, error: adminUserMessages.durationInvalid });
    assert.deepEqual(parseBan('', '30d'), { ok: false, error: adminBanMessages.reasonAndDurationRequired });
    assert.deepEqual(parseBan('Spam', ' '), { ok: false, error: adminBanMessages.reasonAndDurationRequired });
    assert.deepEqual(parseBan('x', '7 days'), { ok: false, error: adminUserMessages.durationInvalid });
    assert.deepEqual(parseBan('Spam', 'perm'), { ok: true, body: { reason: 'Spam', duration: 'perm' } });
  });

  it('credit takes a signed whole number other than 0 and drops an empty reason', () => {
    assert.deepEqual(parseCredit('-20', ' '), { ok: true, body: { amount: -20, reason: undefined } });
    assert.deepEqual(parseCredit('7', ' Refund '), { ok: true, body: { amount: 7, reason: 'Refund' } });
    assert.equal(parseCredit('0', '').ok, false);
    assert.equal(parseCredit('', '').ok, false);
  });
});

describe('admin Users tab: server time text', () => {
  const now = new Date('2026-01-10T00:00:00Z');
  const none = { permanent: false, expiresAt: null, graceEndsAt: null, pendingMs: 0 };

  it('reads permanent, none, pending days, running, and in grace', () => {
    assert.equal(serverTimeText({ ...none, permanent: true }, now), 'Permanent');
    assert.equal(serverTimeText(none, now), adminUserLabels.serverTimeNone);
    assert.equal(serverTimeText({ ...none, pendingMs: 3 * 86_400_000 }, now), adminUserLabels.serverTimePending(3));
    assert.match(serverTimeText({ ...none, expiresAt: '2026-01-15T00:00:00Z' }, now), /^Until \d\d\/01\/2026/);
    assert.match(
      serverTimeText({ ...none, expiresAt: '2026-01-05T00:00:00Z', graceEndsAt: '2026-01-12T00:00:00Z' }, now),
      /^Ran out; deleted after \d\d\/01\/2026/,
    );
    // Grace over as well: nothing is left, not a deletion date in the past.
    assert.equal(
      serverTimeText({ ...none, expiresAt: '2026-01-05T00:00:00Z', graceEndsAt: '2026-01-08T00:00:00Z' }, now),
      'No server time',
    );
  });
});
