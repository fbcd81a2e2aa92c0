import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultSettings } from '@canopy/contract';
import { formatCount, statFigures } from '../src/features/admin/dashboard/figures.ts';
import { detailPairs, detailsTitle, detailValueText, truncateText } from '../src/features/admin/logs/log-details.ts';
import {
  changedSettings,
  draftOf,
  isSettingsDirty,
  rebaseEdits,
  settingsBody,
  withEdit,
} from '../src/features/admin/settings/settings-draft.ts';
import {
  bucketRows,
  consumerRows,
  formatPercent,
  percentOf,
  wrapLabel,
} from '../src/features/admin/storage/storage-view.ts';

describe('dashboard figures', () => {
  test('the four figures in the spec order, locale-formatted', () => {
    const figures = statFigures({ totalUsers: 12345, totalServers: 7, onlineServers: 3, activePlayers: 0 });
    assert.deepEqual(
      figures.map((f) => f.label),
      ['Total Users', 'Total Servers', 'Online Servers', 'Active Players'],
    );
    // The grouping mark is the reader's locale's (12,345 / 12.345 / 12 345), the digits are not.
    assert.match(figures[0]?.value ?? '', /^12[,.'\s\u00a0\u202f]345$/);
    assert.equal(formatCount(7), '7');
    assert.equal(figures[3]?.value, '0');
  });
});

describe('storage view', () => {
  test('buckets follow STORAGE_BUCKETS with their counts', () => {
    const rows = bucketRows({ buckets: { under100: 4, from100to256: 3, from256to512: 2, over512: 1 } });
    assert.deepEqual(
      rows.map((r) => [r.label, r.accounts]),
      [
        ['Under 100 MB', 4],
        ['100 to 256 MB', 3],
        ['Above 256 up to 512 MB', 2],
        ['Above 512 MB', 1],
      ],
    );
  });

  test('a consumer is named by GrowID, else by username; percent of its limit', () => {
    const base = { serverName: null, usedMB: 128, limitMB: 256 };
    const rows = consumerRows([
      { ...base, discordId: '1', discordUsername: 'alice', growId: 'Alice1' },
      { ...base, discordId: '2', discordUsername: 'bob', growId: null, usedMB: 300 },
    ]);
    assert.deepEqual(
      rows.map((r) => [r.key, r.name, r.percent]),
      [
        ['1', 'Alice1', 50],
        ['2', 'bob', 117.2],
      ],
    );
  });

  test('percentOf a zero limit', () => {
    assert.equal(percentOf(0, 0), 0);
    assert.equal(percentOf(5, 0), 100);
    assert.equal(formatPercent(33.333), '33.3%');
  });
});

describe('activity log details', () => {
  test('strings as they are, other values as JSON', () => {
    assert.equal(detailValueText('banned'), 'banned');
    assert.equal(detailValueText(42), '42');
    assert.equal(detailValueText(null), 'null');
    assert.equal(detailValueText({ a: [1, 'b'] }), '{"a":[1,"b"]}');
    assert.equal(detailValueText(undefined), 'undefined');
  });

  test('pairs keep the order and the title holds every pair in full', () => {
    const details = { target: 'Alice1', duration: '7d', count: 3 };
    assert.deepEqual(detailPairs(details), [
      { key: 'target', value: 'Alice1' },
      { key: 'duration', value: '7d' },
      { key: 'count', value: '3' },
    ]);
    assert.equal(detailsTitle(details), 'target: Alice1\nduration: 7d\ncount: 3');
  });

  test('long values are cut with an ellipsis, short ones kept', () => {
    assert.equal(truncateText('short', 10), 'short');
    const cut = truncateText('x'.repeat(200), 10);
    assert.equal(cut.length, 10);
    assert.ok(cut.endsWith('…'));
  });
});

describe('settings draft', () => {
  test('no draft or an unchanged draft is not dirty', () => {
    assert.equal(isSettingsDirty(defaultSettings, null), false);
    assert.equal(isSettingsDirty(defaultSettings, { ...defaultSettings }), false);
  });

  test('a flipped switch is dirty, flipping it back is not', () => {
    const draft = { ...defaultSettings, maintenance: true, disableShop: true };
    assert.equal(isSettingsDirty(defaultSettings, draft), true);
    assert.deepEqual(changedSettings(defaultSettings, draft), ['maintenance', 'disableShop']);
    assert.equal(isSettingsDirty(defaultSettings, { ...draft, maintenance: false, disableShop: false }), false);
  });

  test('edits kept apart from the saved settings: flipping back or a save catching up ends an edit', () => {
    const saved = { ...defaultSettings, maintenance: false, disableShop: false };
    const edits = withEdit(saved, withEdit(saved, {}, 'maintenance', true), 'disableShop', true);
    assert.deepEqual(edits, { maintenance: true, disableShop: true });
    assert.deepEqual(draftOf(saved, edits), { ...saved, maintenance: true, disableShop: true });
    assert.deepEqual(withEdit(saved, edits, 'disableShop', false), { maintenance: true });
    assert.equal(draftOf(saved, {}), null);
    // Another admin saved the same change meanwhile: nothing is left to save.
    assert.equal(draftOf({ ...saved, maintenance: true }, { maintenance: true }), null);
    // Another admin changed a switch this admin did not touch: the draft follows it.
    assert.equal(draftOf({ ...saved, disableShop: true }, { maintenance: true })?.disableShop, true);
  });

  test('Save posts the eight switches of the draft, not the version they were loaded with', () => {
    const loaded = { ...defaultSettings, disableShop: true, version: '0123456789abcdef0123456789abcdef' };
    const draft = draftOf(loaded, withEdit(loaded, {}, 'maintenance', true));
    assert.ok(draft);
    assert.deepEqual(settingsBody(draft), { ...defaultSettings, disableShop: true, maintenance: true });
  });

  test('Reload after a conflict keeps the edits the latest settings do not hold yet', () => {
    const saved = { ...defaultSettings };
    const edits = withEdit(saved, withEdit(saved, {}, 'maintenance', true), 'disableShop', true);
    // Another admin turned the shop off meanwhile (the same change) and the backups off (another one).
    const fresh = { ...saved, disableShop: true, disableBackupManager: true };
    const kept = rebaseEdits(fresh, edits);
    assert.deepEqual(kept, { maintenance: true });
    assert.deepEqual(draftOf(fresh, kept), { ...fresh, maintenance: true }, 'the other admin’s switch stays');
    assert.deepEqual(rebaseEdits({ ...fresh, maintenance: true }, edits), {}, 'all caught up: nothing to save');
  });
});

describe('bucket label wrapping', () => {
  test('breaks at spaces within the width, a long word on its own line', () => {
    assert.deepEqual(wrapLabel('Above 256 up to 512 MB', 10), ['Above 256', 'up to 512', 'MB']);
    assert.deepEqual(wrapLabel('Under 100 MB', 10), ['Under 100', 'MB']);
    assert.deepEqual(wrapLabel('Extraordinarily long', 10), ['Extraordinarily', 'long']);
  });
});
