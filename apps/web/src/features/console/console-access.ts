import {
  CONSOLE_COMMAND_MAX,
  type Profile,
  type ServerStatus,
  type SocketErrorCode,
  serverPageMessages,
} from '@canopy/contract';
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
 * (spec section 4): no server, banned, no console:use, then the api's live refusal (`denied`, which
 * arrives before the profile knows), then the status OFFLINE, STOPPING or UNKNOWN.
 * `status` is null while it is still loading, which blocks nothing yet.
 */
export function consoleBlock(
  profile: ConsoleProfile,
  status: ServerStatus | string | null,
  denied: string | null = null,
): string | null {
  const account = consoleAccountBlock(profile) ?? denied;
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

/** What the console page does with a refusal the api sent on the socket. */
export type ConsoleRefusal =
  /** The console is closed to this user now: show `reason` in its place and disable the command line. */
  | { kind: 'denied'; reason: string; refreshProfile: true }
  /**
   * One command was refused: write it and the reason into this browser's console view, where the user
   * typed it (a permission refusal also means the profile is out of date).
   */
  | { kind: 'line'; command: string; reason: string; refreshProfile: boolean }
  /** Another request was refused: tell the user; a permission refusal also means the profile is out of date. */
  | { kind: 'toast'; message: string; refreshProfile: boolean };

/** Decides the page's reaction to an `error` message by its code (the message is the text shown). */
export function consoleRefusal(error: { message: string; code: SocketErrorCode; command?: string }): ConsoleRefusal {
  if (error.code === 'console_denied') return { kind: 'denied', reason: error.message, refreshProfile: true };
  const refreshProfile = error.code === 'forbidden';
  if (error.command !== undefined)
    return { kind: 'line', command: error.command, reason: error.message, refreshProfile };
  return { kind: 'toast', message: error.message, refreshProfile };
}

/** The api's refusal of the console, tied to the profile it contradicted. */
export interface ConsoleDenial {
  reason: string;
  profile: unknown;
}

/**
 * The refusal that still stands: only until a newer profile arrives (the refetch the refusal triggers),
 * which then decides alone; so a permission granted again opens the console without a reload.
 */
export function activeDenial(denial: ConsoleDenial | null, profile: unknown): string | null {
  return denial && denial.profile === profile ? denial.reason : null;
}
