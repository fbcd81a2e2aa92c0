import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageSlice } from '../src/lib/pagination.ts';

const list = Array.from({ length: 23 }, (_, i) => i + 1);

describe('pageSlice (tables paged by 10)', () => {
  it('cuts pages of ten', () => {
    assert.deepEqual(pageSlice(list, 1, 10), { items: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], page: 1, totalPages: 3 });
    assert.deepEqual(pageSlice(list, 3, 10), { items: [21, 22, 23], page: 3, totalPages: 3 });
  });

  it('clamps a page past the end (after a filter shrank the list) and below 1', () => {
    assert.deepEqual(pageSlice(list, 9, 10).page, 3);
    assert.deepEqual(pageSlice(list, 0, 10).items[0], 1);
    assert.deepEqual(pageSlice(list, Number.NaN, 10).page, 1);
  });

  it('has one empty page for an empty list', () => {
    assert.deepEqual(pageSlice([], 1, 10), { items: [], page: 1, totalPages: 1 });
  });
});
