import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { banExpiryText } from '../src/features/admin/bans/ban-display.ts';

describe('banExpiryText (admin document, section 4: ban display)', () => {
  it("reads 'Permanent' when the expiry is null, missing or empty", () => {
    assert.equal(banExpiryText(null), 'Permanent');
    assert.equal(banExpiryText(undefined), 'Permanent');
    assert.equal(banExpiryText(''), 'Permanent');
    assert.equal(banExpiryText('  '), 'Permanent');
  });

  it('shows the date and time of a temporary ban', () => {
    // Built from local parts: the text is in the reader's time zone, en-GB order.
    const iso = new Date(2026, 2, 4, 5, 6, 7).toISOString();
    assert.equal(banExpiryText(iso), '04/03/2026, 05:06:07');
  });
});
