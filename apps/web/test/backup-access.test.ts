import assert from 'node:assert/strict';
import { it } from 'node:test';
import { backupMessages, messages, NO_SERVER, serverPageMessages } from '@canopy/contract';
import { backupPageBlock } from '../src/features/backup/backup-access.ts';

const owner = {
  isBanned: false,
  isAdmin: false,
  isCollaborator: false,
  collaboratorPermissions: [] as string[],
  serverOwned: 'Grove',
};
const on = { disableBackupManager: false };
const off = { disableBackupManager: true };

it('lets an owner with a server in, and says why everyone else is kept out, in the api order', () => {
  assert.equal(backupPageBlock(owner, on), null);
  assert.deepEqual(backupPageBlock({ ...owner, isBanned: true }, off), {
    kind: 'banned',
    message: serverPageMessages.bannedBackups,
  });
  assert.deepEqual(backupPageBlock(owner, off), { kind: 'disabled', message: messages.featureDisabled });
  assert.equal(backupPageBlock({ ...owner, isAdmin: true }, off), null, 'admins bypass the switch');
  const collaborator = { ...owner, isCollaborator: true };
  assert.deepEqual(backupPageBlock(collaborator, on), {
    kind: 'no-permission',
    message: serverPageMessages.noPermission,
  });
  assert.equal(backupPageBlock({ ...collaborator, collaboratorPermissions: ['backups:manage'] }, on), null);
  assert.deepEqual(backupPageBlock({ ...owner, serverOwned: NO_SERVER }, on), {
    kind: 'no-server',
    message: backupMessages.noServerHint,
  });
});
