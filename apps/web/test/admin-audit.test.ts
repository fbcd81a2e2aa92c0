import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { adminListUrl, setFilters } from '../src/features/admin/api/admin-list.ts';
import { exportFileName } from '../src/features/admin/logs/api/export-file.ts';
import {
  DETAIL_VALUE_MAX,
  detailPairs,
  detailsNeedExpand,
  isPlainText,
} from '../src/features/admin/logs/log-details.ts';

describe('admin list filters in the url', () => {
  test('sends the set filters, trimmed and in a stable order, and leaves empty ones out', () => {
    assert.deepEqual(setFilters({ to: ' 2031-01-02 ', actorType: 'Admin', action: '  ' }), [
      ['actorType', 'Admin'],
      ['to', '2031-01-02'],
    ]);
    assert.equal(
      adminListUrl('/admin/logs', 2, ' shop ', { actorType: 'User', from: '2031-01-01', action: '' }),
      '/admin/logs?page=2&search=shop&actorType=User&from=2031-01-01',
    );
  });

  test('the export has no page, and no query at all without filters', () => {
    assert.equal(adminListUrl('/admin/logs/export', null, '', { actorType: '' }), '/admin/logs/export');
    assert.equal(adminListUrl('/admin/logs/export', null, 'a&b=c', {}), '/admin/logs/export?search=a%26b%3Dc');
  });

  test('names the export file by its day', () => {
    assert.equal(exportFileName(new Date(Date.UTC(2031, 0, 9, 23, 59))), 'activity-logs-2031-01-09.csv');
  });
});

describe('activity log details cell', () => {
  test('shows an entry written as text without its key, and every other entry keyed', () => {
    assert.equal(isPlainText(detailPairs({ text: 'maintenance: false → true' })), true);
    assert.equal(isPlainText(detailPairs({ text: 'a', server: 'b' })), false);
    assert.equal(isPlainText(detailPairs({ server: 'Alpha' })), false);
    assert.equal(isPlainText(detailPairs({})), false);
  });

  test('expands only when something is hidden: a pair past the first three, a long or multi-line value', () => {
    assert.equal(detailsNeedExpand(detailPairs({ text: 'Deleted server "Alpha"' })), false);
    assert.equal(detailsNeedExpand(detailPairs({ a: 1, b: 2, c: 3 })), false);
    assert.equal(detailsNeedExpand(detailPairs({ a: 1, b: 2, c: 3, d: 4 })), true);
    assert.equal(detailsNeedExpand(detailPairs({ text: 'x'.repeat(DETAIL_VALUE_MAX) })), false);
    assert.equal(detailsNeedExpand(detailPairs({ text: 'x'.repeat(DETAIL_VALUE_MAX + 1) })), true);
    assert.equal(detailsNeedExpand(detailPairs({ text: 'one\ntwo' })), true);
    assert.equal(detailsNeedExpand(detailPairs({ nested: { deep: 'x'.repeat(DETAIL_VALUE_MAX) } })), true);
  });
});
