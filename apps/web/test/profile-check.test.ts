import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings, type Profile } from '@canopy/contract';
import { ApiError } from '../src/lib/api-client.ts';
import { classifyProfile, classifyProfileError, RegistrationCheckError } from '../src/lib/profile-query.ts';

const profile = { growId: 'Ann1' } as Profile;

describe('registration check', () => {
  it('is registered with a growId and unregistered without', () => {
    assert.equal(classifyProfile({ profile, settings: defaultSettings }).kind, 'registered');
    assert.equal(
      classifyProfile({ profile: { ...profile, growId: null }, settings: defaultSettings }).kind,
      'unregistered',
    );
  });

  it('treats 404 as unregistered', () => {
    assert.equal(classifyProfileError(new ApiError(404, 'Not Found', 'User is not registered.')).kind, 'unregistered');
  });

  it('turns a maintenance 503 into maintenance with creation and actions disabled', () => {
    for (const error of [
      new ApiError(503, 'Service Unavailable', 'x', 'maintenance'),
      new ApiError(503, 'Service Unavailable', 'The panel is under Maintenance.'),
    ]) {
      const check = classifyProfileError(error);
      assert.equal(check.kind, 'maintenance');
      assert.equal(check.settings.maintenance, true);
      assert.equal(check.settings.disableServerCreation, true);
      assert.equal(check.settings.disableServerActions, true);
      assert.equal(check.settings.disableShop, false);
    }
  });

  it('fails with the HTTP status for other answers', () => {
    assert.throws(
      () => classifyProfileError(new ApiError(500, 'Internal Server Error', 'boom')),
      (e: unknown) =>
        e instanceof RegistrationCheckError &&
        e.code === 500 &&
        e.message === 'Gagal memverifikasi pendaftaran: server membalas dengan kesalahan. Silakan coba lagi nanti.',
    );
    assert.throws(
      () => classifyProfileError(new ApiError(503, 'Service Unavailable', 'Engine down')),
      (e: unknown) => e instanceof RegistrationCheckError && e.code === 503,
    );
  });

  it('fails with 503 and the connection message on a network failure', () => {
    assert.throws(
      () => classifyProfileError(new ApiError(0, '', 'Network error', 'network')),
      (e: unknown) =>
        e instanceof RegistrationCheckError &&
        e.code === 503 &&
        e.message === 'Layanan tidak tersedia. Periksa koneksi internet Anda.',
    );
  });
});
