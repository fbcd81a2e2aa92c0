import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { banExpiryText } from '../src/features/admin/bans/ban-display.ts';
import { formatDateTime } from '../src/lib/format.ts';

describe('banExpiryText (admin document, section 4: ban display)', () => {
  it("reads 'Permanent' when the expiry is null, missing or empty", () => {
    assert.equal(banExpiryText(null), 'Permanent');
    assert.equal(banExpiryText(undefined), 'Permanent');
    assert.equal(banExpiryText(''), 'Permanent');
    assert.equal(banExpiryText('  '), 'Permanent');
  });

  it('shows the date and time of a temporary ban', () => {
    const iso = '2026-03-04T05:06:07.000Z';
    assert.equal(banExpiryText(iso), formatDateTime(iso));
    assert.notEqual(banExpiryText(iso), 'Permanent');
  });
});
