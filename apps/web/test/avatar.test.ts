import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { avatarUrl, defaultAvatarIndex, defaultAvatarUrl, discordAvatarUrl } from '../src/lib/avatar.ts';

const DEFAULTS = ['d0', 'd1', 'd2', 'd3', 'd4'];

describe('defaultAvatarIndex', () => {
  test('discriminator modulo 5', () => {
    assert.equal(defaultAvatarIndex('0'), 0);
    assert.equal(defaultAvatarIndex('0001'), 1);
    assert.equal(defaultAvatarIndex('1234'), 4);
    assert.equal(defaultAvatarIndex('9995'), 0);
    assert.equal(defaultAvatarIndex('7'), 2);
  });

  test('non-numeric discriminators use 0', () => {
    assert.equal(defaultAvatarIndex('abc'), 0);
    assert.equal(defaultAvatarIndex('1.5'), 0);
    assert.equal(defaultAvatarIndex(''), 0);
  });
});

describe('avatar URLs', () => {
  test('Discord CDN when the user has an avatar', () => {
    const user = { id: '80351110224678912', avatar: 'a1b2c3', discriminator: '1337' };
    const expected = 'https://cdn.discordapp.com/avatars/80351110224678912/a1b2c3.png?size=64';
    assert.equal(discordAvatarUrl(user), expected);
    assert.equal(avatarUrl(user, DEFAULTS), expected);
  });

  test('default image picked by discriminator otherwise', () => {
    const user = { id: '1', avatar: null, discriminator: '1338' };
    assert.equal(discordAvatarUrl(user), null);
    assert.equal(avatarUrl(user, DEFAULTS), 'd3');
    assert.equal(avatarUrl({ ...user, avatar: '' }, DEFAULTS), 'd3');
    assert.equal(defaultAvatarUrl('x', DEFAULTS), 'd0');
  });
});
