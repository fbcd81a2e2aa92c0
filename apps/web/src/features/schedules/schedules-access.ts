import { hostingMessages, type Profile, scheduleMessages, serverPageMessages } from '@canopy/contract';
import { hasServer } from '../../lib/owned-server.ts';

/** Why the Schedules page shows a message instead of the list: the same order the api refuses in. */
export function schedulesPageBlock(
  profile: Pick<Profile, 'isBanned' | 'isCollaborator' | 'collaboratorPermissions' | 'serverOwned'>,
): string | null {
  if (profile.isBanned) return hostingMessages.bannedActions;
  if (!hasServer(profile.serverOwned)) return serverPageMessages.noServer;
  if (profile.isCollaborator && !profile.collaboratorPermissions.includes('server:actions'))
    return hostingMessages.noActionPermission;
  return null;
}

/** The weekday names, Sunday first (the api's 0-6). */
export const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** "Every day at 04:30 (Europe/Berlin)" / "Every Friday at 18:00 (Asia/Jakarta)". */
export function scheduleWhen(s: { time: string; weekday: number | null; timeZone: string }) {
  const day = s.weekday === null ? 'Every day' : `Every ${weekdays[s.weekday]}`;
  return `${day} at ${s.time} (${s.timeZone})`;
}

/** The label of each action. */
export const actionLabels = {
  restart: 'Restart the server',
  broadcast: 'Broadcast a message',
  backup: 'Take a backup',
};

export { scheduleMessages };
