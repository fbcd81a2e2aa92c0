import { CONSOLE_COMMAND_MAX, type Profile, type ServerStatus, serverPageMessages } from '@canopy/contract';
import { hasServer } from '../../lib/owned-server.ts';

/** The profile fields that decide whether the console can be used. */
export type ConsoleProfile = Pick<Profile, 'serverOwned' | 'isBanned' | 'isCollaborator' | 'collaboratorPermissions'>;

/** Why the account itself may not use the console (whatever the server does), or null when it may. */
export function consoleAccountBlock(profile: ConsoleProfile): string | null {
  if (!hasServer(profile.serverOwned)) return serverPageMessages.consoleNoServer;
  if (profile.isBanned) return serverPageMessages.bannedConsole;
  if (profile.isCollaborator && !profile.collaboratorPermissions.includes('console:use'))
    return serverPageMessages.noPermissionConsole;
  return null;
}

const runningStatuses: readonly string[] = ['ONLINE', 'STARTING', 'RESTARTING'];
const statusBlocks: Partial<Record<ServerStatus, string>> = {
  OFFLINE: serverPageMessages.consoleOffline,
  STOPPING: serverPageMessages.consoleStopping,
  UNKNOWN: serverPageMessages.consoleUnknown,
};

/**
 * The reason shown on the 'Console Unavailable' overlay, or null when the console is usable
 * (spec section 4): no server, banned, no console:use, then the status OFFLINE, STOPPING or UNKNOWN.
 * `status` is null while it is still loading, which blocks nothing yet.
 */
export function consoleBlock(profile: ConsoleProfile, status: ServerStatus | string | null): string | null {
  const account = consoleAccountBlock(profile);
  if (account) return account;
  if (status === null || runningStatuses.includes(status)) return null;
  // A status the panel does not know reads as UNKNOWN.
  return statusBlocks[status as ServerStatus] ?? serverPageMessages.consoleUnknown;
}

/** WebSocket ready states by name (the socket module reports three; CLOSING is WebSocket's fourth). */
export type ConnectionState = 'CONNECTING' | 'OPEN' | 'CLOSING' | 'CLOSED';

const connectionLabels: Record<ConnectionState, string> = {
  CONNECTING: 'Connecting...',
  OPEN: 'Connected',
  CLOSING: 'Closing...',
  CLOSED: 'Disconnected',
};

/** The header's connection label (spec: Connecting..., Connected, Closing..., Disconnected). */
export function connectionLabel(state: ConnectionState): string {
  return connectionLabels[state];
}

/** The command to send for what was typed: trimmed, non-empty and within CONSOLE_COMMAND_MAX; else null. */
export function commandToSend(raw: string): string | null {
  const command = raw.trim();
  return command.length > 0 && command.length <= CONSOLE_COMMAND_MAX ? command : null;
}
