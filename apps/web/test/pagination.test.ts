import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pageWindow } from '../src/lib/pagination.ts';

describe('pageWindow', () => {
  test('middle of a long list: window of 5 with first, last and both ellipses', () => {
    assert.deepEqual(pageWindow(10, 20), [1, 'ellipsis-start', 8, 9, 10, 11, 12, 'ellipsis-end', 20]);
  });

  test('few pages: all of them, no ellipsis', () => {
    assert.deepEqual(pageWindow(1, 3), [1, 2, 3]);
    assert.deepEqual(pageWindow(5, 5), [1, 2, 3, 4, 5]);
    assert.deepEqual(pageWindow(1, 1), [1]);
  });

  test('near the start the window shifts right', () => {
    assert.deepEqual(pageWindow(1, 20), [1, 2, 3, 4, 5, 'ellipsis-end', 20]);
    assert.deepEqual(pageWindow(3, 20), [1, 2, 3, 4, 5, 'ellipsis-end', 20]);
    assert.deepEqual(pageWindow(4, 20), [1, 2, 3, 4, 5, 6, 'ellipsis-end', 20]);
  });

  test('near the end the window shifts left', () => {
    assert.deepEqual(pageWindow(20, 20), [1, 'ellipsis-start', 16, 17, 18, 19, 20]);
    assert.deepEqual(pageWindow(17, 20), [1, 'ellipsis-start', 15, 16, 17, 18, 19, 20]);
  });

  test('a single skipped page still gets an ellipsis; adjacent pages do not', () => {
    assert.deepEqual(pageWindow(3, 7), [1, 2, 3, 4, 5, 'ellipsis-end', 7]);
    assert.deepEqual(pageWindow(3, 6), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(pageWindow(5, 7), [1, 'ellipsis-start', 3, 4, 5, 6, 7]);
    assert.deepEqual(pageWindow(4, 6), [1, 2, 3, 4, 5, 6]);
  });

  test('out-of-range input is clamped, empty lists give nothing', () => {
    assert.deepEqual(pageWindow(0, 3), [1, 2, 3]);
    assert.deepEqual(pageWindow(99, 8), [1, 'ellipsis-start', 4, 5, 6, 7, 8]);
    assert.deepEqual(pageWindow(1, 0), []);
    assert.deepEqual(pageWindow(1, Number.NaN), []);
  });
});
