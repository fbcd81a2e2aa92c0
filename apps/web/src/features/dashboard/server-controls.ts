import {
  dashboardTexts,
  hostingMessages,
  type PowerAction,
  type Profile,
  type ServerStatus,
  type Settings,
} from '@canopy/contract';
import { isTransitional } from '../../lib/server-status.ts';
import { isStorageFull } from '../../lib/usage.ts';

// Re-exported for the dashboard's card and tests, which read it from here.
export { isTransitional };

/** Whether a control can be used, and the tooltip saying why not (null when there is nothing to explain). */
export interface Control {
  enabled: boolean;
  reason: string | null;
}

/** The profile fields the dashboard's controls depend on. */
export type ControlProfile = Pick<
  Profile,
  | 'isBanned'
  | 'isAdmin'
  | 'isCollaborator'
  | 'collaboratorPermissions'
  | 'storageUsedMB'
  | 'storageLimitMB'
  | 'availableSlot'
>;

/** The settings flags the dashboard's controls depend on. */
export type ControlSettings = Pick<Settings, 'disableServerActions' | 'disableServerCreation'>;

/** The power actions in button order, with their label and the status each sets at once. */
export const powerActions: readonly { action: PowerAction; label: string; pendingStatus: ServerStatus }[] = [
  { action: 'start', label: 'Start', pendingStatus: 'STARTING' },
  { action: 'stop', label: 'Stop', pendingStatus: 'STOPPING' },
  { action: 'restart', label: 'Restart', pendingStatus: 'RESTARTING' },
];

/** The status an action sets immediately (spec section 4). */
export function pendingStatusOf(action: PowerAction): ServerStatus {
  return powerActions.find((p) => p.action === action)?.pendingStatus ?? 'UNKNOWN';
}

const on: Control = { enabled: true, reason: null };
const off = (reason: string | null = null): Control => ({ enabled: false, reason });

/** Why the account may not use any power action at all, or null when it may. */
function accountBlock(profile: ControlProfile, settings: ControlSettings): string | null {
  if (profile.isBanned) return hostingMessages.bannedActions;
  if (settings.disableServerActions && !profile.isAdmin) return hostingMessages.actionsDisabled;
  if (profile.isCollaborator && !profile.collaboratorPermissions.includes('server:actions'))
    return hostingMessages.noActionPermission;
  return null;
}

/**
 * Start, Stop and Restart for a server in `status` (spec sections 4 and 8): the account rules first
 * (ban, actions disabled for non-admins, a collaborator without server:actions), then a transitional
 * status disables all, an UNKNOWN one too (the feed failed: no guessing), then Start needs a stopped
 * server and free storage, Stop a running one, Restart free storage. Once the server time ran out (`timeRanOut`) the api
 * refuses start and restart, so they are disabled with its reason; stop stays possible.
 */
export function powerControls(
  status: ServerStatus | string,
  profile: ControlProfile,
  settings: ControlSettings,
  timeRanOut = false,
): Record<PowerAction, Control> {
  const blocked = accountBlock(profile, settings);
  if (blocked) return { start: off(blocked), stop: off(blocked), restart: off(blocked) };
  if (isTransitional(status)) return { start: off(), stop: off(), restart: off() };
  if (status === 'UNKNOWN') {
    const unknown = off(hostingMessages.statusUnknown);
    return { start: unknown, stop: unknown, restart: unknown };
  }
  const stop = status === 'OFFLINE' ? off() : on;
  if (timeRanOut) {
    const expired = off(hostingMessages.serverTimeExpired);
    return { start: status === 'ONLINE' ? off() : expired, stop, restart: expired };
  }
  // A restart starts the server again, so the api holds it to the start rule (issue 8): full storage refuses both.
  const full = isStorageFull(profile.storageUsedMB, profile.storageLimitMB) ? off(hostingMessages.storageFull) : null;
  const start = status === 'ONLINE' ? off() : (full ?? on);
  return { start, stop, restart: full ?? on };
}

/**
 * The Create Server button: refused to banned accounts, when creation is disabled (admins bypass), without a slot, and
 * once the server time ran out (then the reason names only a code while the shop is disabled for them).
 */
export function createControl(
  profile: ControlProfile,
  settings: ControlSettings & Pick<Settings, 'disableShop'>,
  timeRanOut = false,
): Control {
  if (profile.isBanned) return off(hostingMessages.bannedActions);
  if (settings.disableServerCreation && !profile.isAdmin) return off(hostingMessages.creationDisabled);
  if (profile.availableSlot <= 0) return off(hostingMessages.noSlots);
  // A server made now would be deleted with the rest of the expired time (the api refuses it too).
  if (timeRanOut)
    return off(
      settings.disableShop && !profile.isAdmin ? dashboardTexts.createNeedsCode : hostingMessages.serverTimeOverCreate,
    );
  return on;
}

/** The Delete Server button: the owner only, and not while banned (the api refuses both). */
export function deleteControl(profile: ControlProfile): Control {
  if (profile.isBanned) return off(hostingMessages.bannedActions);
  return profile.isCollaborator ? off(hostingMessages.onlyOwnerDelete) : on;
}
