import { collaboratorPermissions, GRACE_PERIOD_DAYS, setupGuideContent } from '@canopy/contract';
import { type CallerState, startBlockers } from './caller-state.ts';
import type { SetupLinks } from './offline-helper.ts';

const iso = (ms: number | null) => (ms === null ? 'none' : new Date(ms).toISOString());

/** What the panel can do: the same facts the offline helper answers from. */
function panelKnowledge(links: SetupLinks): string {
  const guide = setupGuideContent.EN.platforms;
  const setup = (['windows', 'android', 'ios'] as const)
    .map((p) => `- ${guide[p].title}: ${guide[p].steps.join(' ')} ${guide[p].note}`)
    .join('\n');
  return `Canopy is a hosting panel for private Growtopia-style game servers. Each user signs in with Discord, registers a permanent GrowID, and may own one server.
Pages: Dashboard (server card with status, players and version; Start, Stop, Restart; Create Server and Delete Server; expiry countdown; storage bar), World Manager, Player Database, Collaborators (owners only), Backup Manager, Configuration, Console, Profile, Redeem Code, Renew & Shop (owners only), Item Database, Setup Guide (/how-to-play), Feedback.
Lifecycle: a server is created from an available slot with a name of 3 to 20 letters, digits, underscores or hyphens. Start is disabled while the server is ONLINE, while an action is in progress (STARTING, STOPPING, RESTARTING), when storage is full (used at or above the limit), when server time has run out, for banned accounts, for collaborators without server:actions, and when an administrator disabled server actions.
Server time keeps a server alive; it is added with redeem codes or bought with credits on Renew & Shop. When it runs out the server enters a ${GRACE_PERIOD_DAYS}-day grace period in which it cannot start; if no time is added before the grace period ends, the server is deleted permanently.
Storage: worlds, players and the one backup count against the storage limit; a full storage blocks starting and saving. Storage upgrades are sold on Renew & Shop.
Collaborators: the owner adds a registered player on the Collaborators page with permissions ${collaboratorPermissions.join(', ')}. Collaborators cannot create, delete or renew the server, nor use the shop.
Backups: one backup per account on the Backup Manager; restoring stops the server and replaces its database.
Connecting (${links ? `the game IP is ${links.ip}, hosts lines ${links.hostsLines.join(' / ')}, tunnel URL ${links.tunnelUrl}, iOS profile URL ${links.surgeUrl}` : 'the game address cannot be resolved right now; the Setup Guide page will show it'}):
${setup}`;
}

/** The caller's own live state, one fact per line. */
function callerFacts(s: CallerState): string {
  const lines = [
    `Current time: ${iso(s.now)}`,
    `GrowID: ${s.growId}; Discord username: ${s.username}; account type: ${s.accountType}; admin: ${s.isAdmin ? 'yes' : 'no'}`,
    `Credit: ${s.credit}; available server slots: ${s.slots}`,
    s.ban
      ? `Banned: yes (reason: ${s.ban.reason || 'none given'}; by ${s.ban.bannedBy}; until ${s.ban.expires ?? 'permanent'})`
      : 'Banned: no',
    s.server
      ? `Server: ${s.server.name} (${s.server.role}${s.server.role === 'collaborator' ? `, permissions: ${s.server.permissions.join(', ') || 'none'}` : ''}); status ${s.server.status}; players ${s.server.players}; version ${s.server.version}${s.server.crashLoop ? '; kept offline after crashing repeatedly' : ''}`
      : 'Server: none',
    `Server time: ${s.time.phase}; expires ${iso(s.time.expiresAt)}; grace period ends ${iso(s.time.graceEndsAt)}`,
    `Storage: ${s.storage.usedMB}MB used of ${s.storage.limitMB}MB${s.storage.full ? ' (full)' : ''}`,
    `Feature switches: server actions ${s.settings.disableServerActions ? 'disabled' : 'enabled'}, server creation ${s.settings.disableServerCreation ? 'disabled' : 'enabled'}, shop ${s.settings.disableShop ? 'disabled' : 'enabled'}, backup manager ${s.settings.disableBackupManager ? 'disabled' : 'enabled'} (admins bypass these)`,
    `Start blocked by: ${startBlockers(s).join('; ') || 'nothing'}`,
  ];
  return lines.join('\n');
}

/**
 * SkyHelper's system instruction: who it is, what Canopy can do, and the caller's own state. Nothing about
 * any other account goes in, so the model cannot reveal it.
 */
export function systemPrompt(s: CallerState, links: SetupLinks): string {
  return `You are SkyHelper, the assistant of the Canopy hosting panel. Help the signed-in user manage their game server. Answer briefly and concretely, in the user's language, using the panel's page and button names. Use the user's live state below when it matters. You only know this user's own account; never guess about other users or servers, and never invent features.

About Canopy:
${panelKnowledge(links)}

The user's live state:
${callerFacts(s)}`;
}
