import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONSOLE_COMMAND_MAX, serverPageMessages } from '@canopy/contract';
import {
  activeDenial,
  type ConsoleProfile,
  commandToSend,
  connectionLabel,
  consoleAccountBlock,
  consoleBlock,
  consoleRefusal,
} from '../src/features/console/console-access.ts';

const owner: ConsoleProfile = {
  serverOwned: 'Leafy',
  isBanned: false,
  isCollaborator: false,
  collaboratorPermissions: [],
};
const helper: ConsoleProfile = { ...owner, isCollaborator: true, collaboratorPermissions: ['console:use'] };

describe('consoleBlock', () => {
  it('is open for an owner while the server runs or starts', () => {
    for (const status of ['ONLINE', 'STARTING', 'RESTARTING'] as const) assert.equal(consoleBlock(owner, status), null);
  });
  it('does not block while the status is loading', () => {
    assert.equal(consoleBlock(owner, null), null);
  });
  it('names the status that blocks', () => {
    assert.equal(consoleBlock(owner, 'OFFLINE'), serverPageMessages.consoleOffline);
    assert.equal(consoleBlock(owner, 'STOPPING'), serverPageMessages.consoleStopping);
    assert.equal(consoleBlock(owner, 'UNKNOWN'), serverPageMessages.consoleUnknown);
    assert.equal(consoleBlock(owner, 'SOMETHING_NEW'), serverPageMessages.consoleUnknown);
  });
  it('without a server', () => {
    assert.equal(consoleBlock({ ...owner, serverOwned: 'No Server' }, null), 'You need a server to use the console.');
    assert.equal(consoleBlock({ ...owner, serverOwned: '' }, 'ONLINE'), serverPageMessages.consoleNoServer);
  });
  it('banned beats the status', () => {
    assert.equal(consoleBlock({ ...owner, isBanned: true }, 'ONLINE'), serverPageMessages.bannedConsole);
  });
  it('a collaborator needs console:use', () => {
    assert.equal(consoleBlock(helper, 'ONLINE'), null);
    assert.equal(
      consoleBlock({ ...helper, collaboratorPermissions: ['worlds:manage'] }, 'ONLINE'),
      serverPageMessages.noPermissionConsole,
    );
  });
  it('an owner needs no permission list', () => {
    assert.equal(consoleAccountBlock(owner), null);
  });
});

describe('connectionLabel', () => {
  it('labels the four WebSocket states as the spec writes them', () => {
    assert.equal(connectionLabel('CONNECTING'), 'Connecting...');
    assert.equal(connectionLabel('OPEN'), 'Connected');
    assert.equal(connectionLabel('CLOSING'), 'Closing...');
    assert.equal(connectionLabel('CLOSED'), 'Disconnected');
  });
});

describe('commandToSend', () => {
  it('trims', () => {
    assert.equal(commandToSend('  say hi  '), 'say hi');
  });
  it('refuses empty and blank input', () => {
    assert.equal(commandToSend(''), null);
    assert.equal(commandToSend('   \t'), null);
  });
  it('refuses a command longer than the api accepts', () => {
    assert.equal(commandToSend('x'.repeat(CONSOLE_COMMAND_MAX)), 'x'.repeat(CONSOLE_COMMAND_MAX));
    assert.equal(commandToSend('x'.repeat(CONSOLE_COMMAND_MAX + 1)), null);
  });
});

describe('a live refusal of the console', () => {
  it('console_denied blocks the console at once with the text the api sent, before the profile knows', () => {
    const refusal = consoleRefusal({ message: serverPageMessages.noPermissionConsole, code: 'console_denied' });
    assert.deepEqual(refusal, { kind: 'denied', reason: serverPageMessages.noPermissionConsole, refreshProfile: true });
    // The profile still says console:use and the server runs, yet the console is blocked.
    assert.equal(
      consoleBlock(helper, 'ONLINE', refusal.kind === 'denied' ? refusal.reason : null),
      'You do not have permission to use the console.',
    );
  });

  it('the account blocks still come first, and the status only after a denial', () => {
    assert.equal(consoleBlock({ ...helper, isBanned: true }, 'ONLINE', 'x'), serverPageMessages.bannedConsole);
    assert.equal(
      consoleBlock(helper, 'OFFLINE', serverPageMessages.noPermissionConsole),
      serverPageMessages.noPermissionConsole,
    );
    assert.equal(consoleBlock(helper, 'OFFLINE', null), serverPageMessages.consoleOffline);
  });

  it('a refusal that names no command is a toast; a permission refusal refreshes the profile', () => {
    assert.deepEqual(consoleRefusal({ message: 'no', code: 'forbidden' }), {
      kind: 'toast',
      message: 'no',
      refreshProfile: true,
    });
    for (const code of ['rate_limited', 'conflict', 'invalid', 'failed'] as const)
      assert.deepEqual(consoleRefusal({ message: 'm', code }), { kind: 'toast', message: 'm', refreshProfile: false });
  });

  it('a refused command goes into the console view as the command and its reason, not a toast', () => {
    assert.deepEqual(consoleRefusal({ message: 'Too many commands.', code: 'rate_limited', command: 'say hi' }), {
      kind: 'line',
      command: 'say hi',
      reason: 'Too many commands.',
      refreshProfile: false,
    });
    assert.deepEqual(consoleRefusal({ message: 'no', code: 'forbidden', command: 'stop' }), {
      kind: 'line',
      command: 'stop',
      reason: 'no',
      refreshProfile: true,
    });
    // A command that closes the console to the user is still the denial, whatever it names.
    assert.equal(consoleRefusal({ message: 'no', code: 'console_denied', command: 'help' }).kind, 'denied');
  });

  it('a denial stands only until a newer profile arrives', () => {
    const before = { ...helper };
    const denial = { reason: serverPageMessages.noPermissionConsole, profile: before };
    assert.equal(activeDenial(denial, before), serverPageMessages.noPermissionConsole);
    assert.equal(activeDenial(denial, { ...helper }), null, 'the refetched profile decides again');
    assert.equal(activeDenial(null, before), null);
  });
});
