import {
  type ConfigurationTab,
  configurationTabs,
  type ServerStatus,
  type Settings,
  serverPageMessages,
} from '@canopy/contract';
import { type ServerPageGate, type ServerPageUser, serverPageGate } from '../../lib/server-page-gate.ts';

/** The page-specific texts of the Configuration page's gate. */
export const configurationGateTexts = {
  banned: serverPageMessages.bannedConfiguration,
  noPermission: serverPageMessages.noPermission,
  // Never shown: an offline server can be configured.
  offline: serverPageMessages.serverStarting,
};

/**
 * Whether the Configuration page may load: like the other server pages (ban, permission, server), but
 * it works while the server is ONLINE or OFFLINE; any other status is the busy message (spec section 4).
 */
export function configurationGate(user: ServerPageUser, status: ServerStatus | undefined): ServerPageGate {
  const gate = serverPageGate(user, 'config:manage', status, configurationGateTexts);
  return gate.kind === 'blocked' && gate.reason === 'offline' ? { kind: 'ready' } : gate;
}

/** The admin switch that hides each tab (Custom Textures follows Custom Items: both make custom items). */
const tabSwitch: Record<ConfigurationTab, keyof Settings> = {
  general: 'disableGeneralConfig',
  'newbie-kit': 'disableNewbieKit',
  'custom-items': 'disableCustomItems',
  'custom-textures': 'disableCustomItems',
};

/** The tabs a user sees: those an admin switched off are hidden from regular users; admins see all. */
export function visibleConfigurationTabs(settings: Settings, isAdmin: boolean): ConfigurationTab[] {
  return configurationTabs.filter((tab) => isAdmin || !settings[tabSwitch[tab]]);
}
