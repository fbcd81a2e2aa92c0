import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CollaboratorValidation, collaboratorPermissions, serverPageMessages } from '@canopy/contract';
import { collaboratorsPageBlock } from '../src/features/collaborators/collaborators-access.ts';
import {
  DISCORD_ID_DEBOUNCE_MS,
  discordIdCheck,
  discordIdState,
  validationErrorMessage,
} from '../src/features/collaborators/discord-id-check.ts';
import {
  knownPermissions,
  permissionLabel,
  permissionOptions,
} from '../src/features/collaborators/permission-labels.ts';
import { ApiError } from '../src/lib/api-client.ts';

const id = '123456789012345678';
const answer = (status: CollaboratorValidation['status']): CollaboratorValidation => ({
  status,
  message: `api says ${status}`,
  user: status === 'valid' ? { DiscordUsername: 'bud', GrowID: 'Bud1' } : null,
});
const state = (input: string, settled: string, result?: CollaboratorValidation, error?: unknown) =>
  discordIdState({ input, settled, result, error });

describe('discordIdCheck (what runs once typing stops)', () => {
  it('does nothing for an empty field', () => {
    assert.deepEqual(discordIdCheck('   '), { kind: 'idle' });
  });
  it('refuses a malformed id without calling the api', () => {
    assert.deepEqual(discordIdCheck('12ab'), { kind: 'invalid', message: 'A Discord ID is 17 to 20 digits.' });
    assert.equal(discordIdCheck('1'.repeat(16)).kind, 'invalid');
    assert.equal(discordIdCheck('1'.repeat(21)).kind, 'invalid');
  });
  it('asks the api for a well-formed id, trimmed', () => {
    assert.deepEqual(discordIdCheck(` ${id} `), { kind: 'remote', discordId: id });
  });
  it('waits 500 ms', () => {
    assert.equal(DISCORD_ID_DEBOUNCE_MS, 500);
  });
});

describe('discordIdState (the state machine of spec section 4)', () => {
  it('idle for an empty field, even with an old answer around', () => {
    assert.deepEqual(state('', id, answer('valid')), { status: 'idle' });
  });
  it('validating while typing, so an earlier valid id cannot enable Add', () => {
    assert.deepEqual(state(`${id}9`, id, answer('valid')), { status: 'validating' });
  });
  it('validating while the api has not answered', () => {
    assert.deepEqual(state(id, id), { status: 'validating' });
  });
  it('invalid_id from the local check', () => {
    assert.deepEqual(state('abc', 'abc'), {
      status: 'invalid_id',
      message: 'A Discord ID is 17 to 20 digits.',
      user: null,
    });
  });
  it("takes the api's status, message and user", () => {
    for (const status of ['valid', 'not_found', 'conflict', 'invalid_id'] as const) {
      const got = state(id, id, answer(status));
      assert.equal(got.status, status);
      assert.equal('message' in got && got.message, `api says ${status}`);
    }
    assert.deepEqual(state(id, id, answer('valid')), {
      status: 'valid',
      message: 'api says valid',
      user: { DiscordUsername: 'bud', GrowID: 'Bud1' },
    });
  });
  it('error when the check failed', () => {
    assert.deepEqual(state(id, id, undefined, new ApiError(500, 'x', 'Database down')), {
      status: 'error',
      message: 'Database down',
    });
  });
  it('ignores surrounding spaces when comparing typed and settled input', () => {
    assert.equal(state(` ${id}`, id, answer('valid')).status, 'valid');
  });
});

describe('validationErrorMessage', () => {
  it("shows the api's error", () => {
    assert.equal(validationErrorMessage(new ApiError(403, 'Forbidden', 'Only the owner…')), 'Only the owner…');
  });
  it('an answer of the wrong shape is an unknown validation error', () => {
    assert.equal(
      validationErrorMessage(new ApiError(200, 'OK', 'x', 'invalid_response')),
      serverPageMessages.validationUnknown,
    );
  });
  it('network and other failures use the generic text', () => {
    assert.equal(
      validationErrorMessage(new ApiError(0, '', 'Network', 'network')),
      serverPageMessages.validationFailed,
    );
    assert.equal(validationErrorMessage(new Error('boom')), 'An error occurred during validation.');
  });
});

describe('permission labels', () => {
  it('has a readable label for every permission, in the contract order', () => {
    assert.deepEqual(
      permissionOptions.map((o) => o.id),
      [...collaboratorPermissions],
    );
    for (const o of permissionOptions) {
      assert.ok(o.label.length > 0 && !o.label.includes(':'), o.id);
      assert.ok(o.description.length > 0, o.id);
    }
    assert.equal(permissionLabel('console:use'), 'Use Console');
    assert.equal(permissionLabel('server:actions'), 'Server Actions');
  });
  it('shows an unknown id as it is', () => {
    assert.equal(permissionLabel('future:thing'), 'future:thing');
  });
  it('keeps known permissions in contract order', () => {
    assert.deepEqual(knownPermissions(['console:use', 'bogus', 'worlds:manage']), ['worlds:manage', 'console:use']);
  });
});

describe('collaboratorsPageBlock', () => {
  it('only the owner manages collaborators', () => {
    assert.equal(
      collaboratorsPageBlock({ isCollaborator: true, serverOwned: 'Leafy' }),
      'Only the server owner can manage collaborators.',
    );
  });
  it('needs a server', () => {
    assert.equal(
      collaboratorsPageBlock({ isCollaborator: false, serverOwned: 'No Server' }),
      'You need a server to add collaborators.',
    );
  });
  it('opens for an owner with a server', () => {
    assert.equal(collaboratorsPageBlock({ isCollaborator: false, serverOwned: 'Leafy' }), null);
  });
});
