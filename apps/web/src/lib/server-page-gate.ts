import { type CollaboratorPermission, type ServerStatus, serverPageMessages } from '@canopy/contract';
import { hasServer } from './owned-server.ts';

/**
 * What a banned user reads on each server page (server-management document: 'Your account is banned.
 * You cannot ...'), instead of the sidebar's generic locked tooltip.
 */
const bannedServerPageTexts: Readonly<Record<string, string>> = {
  '/worlds': serverPageMessages.bannedWorlds,
  '/players': serverPageMessages.bannedPlayers,
  '/console': serverPageMessages.bannedConsole,
  '/backup': serverPageMessages.bannedBackups,
  '/configuration': serverPageMessages.bannedConfiguration,
};

/**
 * The reason a locked page shows when opened directly: a banned user on a server page reads that page's
 * ban text; every other lock keeps the sidebar's tooltip (`tooltip`).
 */
export function lockedPageReason(path: string, user: { isBanned: boolean }, tooltip: string): string {
  return (user.isBanned && bannedServerPageTexts[path]) || tooltip;
}

/** The page-specific texts of a server page's gate (the rest are shared). */
export interface ServerPageTexts {
  banned: string;
  noPermission: string;
  offline: string;
}

/** Why a server page shows a message instead of its content. */
export type ServerPageBlock =
  | 'banned'
  | 'no-permission'
  | 'no-server'
  | 'offline'
  | 'starting'
  | 'stopping'
  | 'unknown';

/** What a server page shows: its content, a wait for the status feed, or a message. */
export type ServerPageGate =
  | { kind: 'ready' }
  | { kind: 'loading' }
  | { kind: 'blocked'; reason: ServerPageBlock; message: string };

/** The profile fields the gate reads. */
export interface ServerPageUser {
  isBanned: boolean;
  isCollaborator: boolean;
  collaboratorPermissions: readonly string[];
  serverOwned: string;
}

const statusBlocks: Record<Exclude<ServerStatus, 'ONLINE'>, ServerPageBlock> = {
  OFFLINE: 'offline',
  STARTING: 'starting',
  RESTARTING: 'starting',
  STOPPING: 'stopping',
  UNKNOWN: 'unknown',
};

function messageOf(reason: ServerPageBlock, texts: ServerPageTexts): string {
  switch (reason) {
    case 'banned':
      return texts.banned;
    case 'no-permission':
      return texts.noPermission;
    case 'no-server':
      return serverPageMessages.noServer;
    case 'offline':
      return texts.offline;
    case 'starting':
      return serverPageMessages.serverStarting;
    case 'stopping':
      return serverPageMessages.serverStopping;
    case 'unknown':
      return serverPageMessages.consoleUnknown;
  }
}

/**
 * Decides whether a page that works on the running server (worlds, players) may load: banned
 * users and collaborators without `permission` are refused first, then a missing server, then any
 * status other than ONLINE (spec sections 2, 4 and 6). `status` is undefined while the feed loads.
 */
export function serverPageGate(
  user: ServerPageUser,
  permission: CollaboratorPermission,
  status: ServerStatus | undefined,
  texts: ServerPageTexts,
): ServerPageGate {
  const block = (reason: ServerPageBlock): ServerPageGate => ({
    kind: 'blocked',
    reason,
    message: messageOf(reason, texts),
  });
  if (user.isBanned) return block('banned');
  if (user.isCollaborator && !user.collaboratorPermissions.includes(permission)) return block('no-permission');
  if (!hasServer(user.serverOwned)) return block('no-server');
  if (status === undefined) return { kind: 'loading' };
  return status === 'ONLINE' ? { kind: 'ready' } : block(statusBlocks[status]);
}
