import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostReserveBytes } from '../src/servers/storage-quota.ts';

const MB = 1024 * 1024;

describe('host disk reserve', () => {
  it('keeps 5 % of the disk for the platform, at least 1 MB and at most 256 MB', () => {
    assert.equal(hostReserveBytes(12 * MB), MB);
    assert.equal(hostReserveBytes(1000 * MB), 50 * MB);
    assert.equal(hostReserveBytes(1024 * 1024 * MB), 256 * MB);
  });
});
