import { backupMessages, messages, type Profile, type Settings, serverPageMessages } from '@canopy/contract';
import { hasServer } from '../../lib/owned-server.ts';

/** Why the Backup Manager shows a message instead of the backup: the same order the api refuses in. */
export type BackupPageBlock =
  | { kind: 'banned' | 'no-permission' | 'disabled'; message: string }
  | { kind: 'no-server'; message: string };

/** Decides whether the Backup Manager may load for this user (spec sections 2 and 6). */
export function backupPageBlock(
  profile: Pick<Profile, 'isBanned' | 'isAdmin' | 'isCollaborator' | 'collaboratorPermissions' | 'serverOwned'>,
  settings: Pick<Settings, 'disableBackupManager'>,
): BackupPageBlock | null {
  if (profile.isBanned) return { kind: 'banned', message: serverPageMessages.bannedBackups };
  if (settings.disableBackupManager && !profile.isAdmin) return { kind: 'disabled', message: messages.featureDisabled };
  if (profile.isCollaborator && !profile.collaboratorPermissions.includes('backups:manage'))
    return { kind: 'no-permission', message: serverPageMessages.noPermission };
  if (!hasServer(profile.serverOwned)) return { kind: 'no-server', message: backupMessages.noServerHint };
  return null;
}
