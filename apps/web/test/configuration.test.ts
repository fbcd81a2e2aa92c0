import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings, serverPageMessages } from '@canopy/contract';
import { configurationGate, visibleConfigurationTabs } from '../src/features/configuration/configuration-access.ts';
import {
  addKitItem,
  parseCurrency,
  parseQuantity,
  removeKitItem,
  searchKitItems,
} from '../src/features/configuration/newbie-kit-draft.ts';

const owner = { isBanned: false, isCollaborator: false, collaboratorPermissions: [], serverOwned: 'Grove' };

describe('configuration gate', () => {
  it('opens while ONLINE or OFFLINE and shows the busy texts otherwise', () => {
    assert.deepEqual(configurationGate(owner, 'ONLINE'), { kind: 'ready' });
    assert.deepEqual(configurationGate(owner, 'OFFLINE'), { kind: 'ready' });
    assert.deepEqual(configurationGate(owner, undefined), { kind: 'loading' });
    for (const status of ['STARTING', 'RESTARTING'] as const)
      assert.equal(
        (configurationGate(owner, status) as { message: string }).message,
        serverPageMessages.serverStarting,
      );
    assert.equal(
      (configurationGate(owner, 'STOPPING') as { message: string }).message,
      serverPageMessages.serverStopping,
    );
  });
  it('refuses banned users, collaborators without config:manage and users without a server', () => {
    const at = (user: typeof owner) => (configurationGate(user, 'ONLINE') as { message: string }).message;
    assert.equal(at({ ...owner, isBanned: true }), serverPageMessages.bannedConfiguration);
    assert.equal(
      at({ ...owner, isCollaborator: true, collaboratorPermissions: ['console:use'] as never }),
      serverPageMessages.noPermission,
    );
    assert.deepEqual(
      configurationGate(
        { ...owner, isCollaborator: true, collaboratorPermissions: ['config:manage'] as never },
        'OFFLINE',
      ),
      { kind: 'ready' },
    );
    assert.equal(at({ ...owner, serverOwned: 'No Server' }), serverPageMessages.noServer);
  });
});

describe('configuration tabs', () => {
  it('hides switched-off tabs from regular users (Custom Textures follows Custom Items); admins see all', () => {
    const off = { ...defaultSettings, disableNewbieKit: true, disableCustomItems: true };
    assert.deepEqual(visibleConfigurationTabs(off, false), ['general']);
    assert.deepEqual(visibleConfigurationTabs(off, true), ['general', 'newbie-kit', 'custom-items', 'custom-textures']);
    assert.deepEqual(visibleConfigurationTabs({ ...off, disableGeneralConfig: true }, false), []);
  });
});

describe('newbie kit draft', () => {
  it('adds to the quantity of an item already in the kit', () => {
    const once = addKitItem([], 2, 5);
    assert.deepEqual(addKitItem(once, 2, 3), [[2, 8]]);
    assert.deepEqual(addKitItem(once, 10, 1), [
      [2, 5],
      [10, 1],
    ]);
    assert.deepEqual(
      removeKitItem(
        [
          [2, 5],
          [10, 1],
        ],
        2,
      ),
      [[10, 1]],
    );
  });
  it('parses quantities as positive integers and currencies as integers defaulting to 0', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '', ' '.repeat(3), '99999999999'])
      assert.equal(parseQuantity(bad), null, bad);
    assert.equal(parseQuantity(' 7 '), 7);
    assert.equal(parseCurrency(''), 0);
    assert.equal(parseCurrency('abc'), 0);
    assert.equal(parseCurrency('250'), 250);
  });
  it('suggests at most 10 items by name or id', () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ item_id: i, name: `Block ${i}` }));
    assert.equal(searchKitItems(items, 'block').length, 10);
    assert.deepEqual(searchKitItems(items, '7'), [
      { item_id: 7, name: 'Block 7' },
      { item_id: 17, name: 'Block 17' },
      { item_id: 27, name: 'Block 27' },
    ]);
    assert.deepEqual(searchKitItems(items, '  '), []);
  });
  it('lists the closest names first: exact, then starting with the query, then containing it', () => {
    const items = ['Bedrock', 'Bedrock Seed', 'Rock', 'Rock Seed', 'Rockslide'].map((name, i) => ({
      item_id: i + 8,
      name,
    }));
    assert.deepEqual(
      searchKitItems(items, 'rock').map((i) => i.name),
      ['Rock', 'Rock Seed', 'Rockslide', 'Bedrock', 'Bedrock Seed'],
    );
    assert.deepEqual(
      searchKitItems(items, 'rock', 2).map((i) => i.name),
      ['Rock', 'Rock Seed'],
    );
  });
});
