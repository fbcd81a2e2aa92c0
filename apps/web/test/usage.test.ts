import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isStorageFull, usageLevel, usagePercent } from '../src/lib/usage.ts';

describe('usagePercent', () => {
  test('share of the limit', () => {
    assert.equal(usagePercent(50, 200), 25);
    assert.equal(usagePercent(0, 256), 0);
    assert.equal(usagePercent(256, 256), 100);
  });

  test('clamped to 0..100', () => {
    assert.equal(usagePercent(300, 256), 100);
    assert.equal(usagePercent(-5, 256), 0);
  });

  test('no limit: full once anything is used', () => {
    assert.equal(usagePercent(1, 0), 100);
    assert.equal(usagePercent(0, 0), 0);
    assert.equal(usagePercent(5, -1), 100);
  });
});

describe('usageLevel', () => {
  test('normal up to and including 75', () => {
    assert.equal(usageLevel(0), 'normal');
    assert.equal(usageLevel(75), 'normal');
  });

  test('warning above 75 up to and including 90', () => {
    assert.equal(usageLevel(75.01), 'warning');
    assert.equal(usageLevel(90), 'warning');
  });

  test('danger above 90', () => {
    assert.equal(usageLevel(90.01), 'danger');
    assert.equal(usageLevel(100), 'danger');
  });
});

describe('isStorageFull', () => {
  test('full at or above the limit', () => {
    assert.equal(isStorageFull(255, 256), false);
    assert.equal(isStorageFull(256, 256), true);
    assert.equal(isStorageFull(300, 256), true);
  });
});
