import {
  assistantMessages,
  type CollaboratorPermission,
  collaboratorPermissions,
  GRACE_PERIOD_DAYS,
  type SetupGuide,
  type SetupPlatform,
  setupGuideContent,
  setupGuideMessages,
} from '@canopy/contract';
import { type CallerState, hasServerActions, startBlockers } from './caller-state.ts';

/** The questions the offline helper knows, in the order they are tried. */
export type OfflineTopic = 'start_disabled' | 'start' | 'grace' | 'connect' | 'collaborator' | 'fallback';

/**
 * What the Setup Guide page shows (setup-guide.service.ts setupGuide: the resolved game address, its hosts
 * lines, the tunnel and profile URLs), or null when the game address cannot be resolved right now.
 */
export type SetupLinks = SetupGuide | null;

const has = (text: string, pattern: RegExp) => pattern.test(text);

// English and the Indonesian most players type; matched on whole words where that matters.
const START =
  /\b(start|starting|launch|run|running|turn on|boot|online|(?:di)?nyala\w*|menyalakan|(?:di)?hidupkan|jalankan|mulai)\b/;
const WHY_NOT =
  /\b(why|can'?t|cannot|unable|disabled|grey|gray|greyed|not work\w*|won'?t|doesn'?t|locked|kenapa|mengapa|tidak bisa|gak bisa|ga bisa|nggak bisa)\b/;
const GRACE =
  /\b(grace|expir\w*|server time|time left|renew\w*|(?:runs?|ran|running) out|deleted|kedaluwarsa|masa tenggang|habis)\b/;
const PLATFORM = /\b(windows|pc|laptop|android|ios|iphone|ipad|powertunnel|surge|shadowrocket|hosts? file)\b/;
const CONNECT = /\b(connect\w*|join|play|hosts?|phone|setup|ip|masuk|sambung\w*)\b/;
const COLLABORATOR = /\b(collaborat\w*|invite|co-?owner|friend|teammate|helper|permission\w*|kolaborator|teman)\b/;

/** Picks the topic of a question (exported for tests). */
export function topicOf(question: string): OfflineTopic {
  const q = question.toLowerCase().replaceAll('\u2019', "'");
  if (has(q, COLLABORATOR)) return 'collaborator';
  if (has(q, GRACE)) return 'grace';
  // A named device is about connecting, even in "how do I run it on Android".
  if (has(q, PLATFORM)) return 'connect';
  if (has(q, START)) return has(q, WHY_NOT) ? 'start_disabled' : 'start';
  if (has(q, CONNECT)) return 'connect';
  return 'fallback';
}

/** The platforms a question names (all three when it names none). */
export function platformsOf(question: string): SetupPlatform[] {
  const q = question.toLowerCase();
  const named: SetupPlatform[] = [];
  if (/\b(windows|pc|laptop|computer|hosts)\b/.test(q)) named.push('windows');
  if (/\b(android|powertunnel)\b/.test(q)) named.push('android');
  if (/\b(ios|iphone|ipad|surge|shadowrocket|apple)\b/.test(q)) named.push('ios');
  return named.length > 0 ? named : ['windows', 'android', 'ios'];
}

/** '1 slot', '2 slots'. */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const pad = (n: number) => String(n).padStart(2, '0');
/** en-GB date and time (UTC), as the panel shows dates. */
const when = (ms: number) => {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
};

/** One sentence on the caller's server: name, status, players and (unless a reason names it anyway) storage. */
export function serverSummary(s: CallerState, withStorage = true): string {
  if (!s.server) return `You (${s.growId}) do not have a server yet.`;
  const who =
    s.server.role === 'owner' ? `Your server ${s.server.name}` : `The server you collaborate on, ${s.server.name},`;
  const storage = s.storage.full
    ? `storage is full (${s.storage.usedMB}MB of ${s.storage.limitMB}MB)`
    : `storage is ${s.storage.usedMB}MB of ${s.storage.limitMB}MB`;
  const players = `${count(s.server.players, 'player')} online`;
  return withStorage
    ? `${who} is ${s.server.status} with ${players}, and ${storage}.`
    : `${who} is ${s.server.status} with ${players}.`;
}

function startDisabled(s: CallerState): string {
  const reasons = startBlockers(s);
  if (!s.server) return `You do not have a server yet, so there is nothing to start. ${createHint(s)}`;
  if (reasons.length === 0)
    return `${serverSummary(s)} Nothing blocks Start right now: press Start on the Dashboard's server card. If it still fails, the error message in the toast says why.`;
  return `${serverSummary(s, !s.storage.full)} Start is disabled because ${reasons.join('; and ')}. ${fixes(s)}`.trim();
}

function startHowTo(s: CallerState): string {
  if (!s.server) return `To start a server you first need one. ${createHint(s)}`;
  const steps =
    'Open the Dashboard and press Start on your server card. The status goes STARTING, then ONLINE once the server is up; Stop and Restart work the same way.';
  const reasons = startBlockers(s);
  if (reasons.length === 0) return `${steps} ${serverSummary(s)} Nothing blocks Start right now.`;
  return `${steps} But right now Start is disabled: ${reasons.join('; and ')}. ${fixes(s)}`.trim();
}

function createHint(s: CallerState): string {
  if (s.ban)
    return 'Your account is banned, so you cannot create or start a server; the Dashboard shows the reason and when the ban ends.';
  if (s.slots <= 0)
    return 'You have no available server slots: redeem a code or buy an extra slot on Renew & Shop, then create one on the Dashboard.';
  if (s.settings.disableServerCreation && !s.isAdmin)
    return 'Server creation is currently disabled by an administrator; try again later.';
  return `You have ${count(s.slots, 'server slot')}: press Create Server on the Dashboard and pick a name of 3 to 20 letters, digits, underscores or hyphens.`;
}

/** What the caller can do about the blockers that are theirs to fix. */
function fixes(s: CallerState): string {
  const tips: string[] = [];
  if (s.storage.full)
    tips.push('Free some space (delete worlds or your backup) or buy a storage upgrade on Renew & Shop.');
  if (s.time.phase === 'grace' || s.time.phase === 'expired')
    tips.push('Add server time on Renew & Shop or with a redeem code.');
  if (s.server?.role === 'collaborator' && !hasServerActions(s))
    tips.push('Ask the server owner to grant you the server:actions permission.');
  return tips.join(' ');
}

/** Waiting server time in whole days, or hours below a day. */
const pendingText = (ms: number) =>
  ms >= 86_400_000 ? count(Math.round(ms / 86_400_000), 'day') : count(Math.max(1, Math.round(ms / 3_600_000)), 'hour');

function grace(s: CallerState): string {
  const rule = `When your server time runs out, the server enters a ${GRACE_PERIOD_DAYS}-day grace period: it cannot be started, and if no time is added before the grace period ends, the server is deleted permanently. Adding server time (Renew & Shop or a redeem code) during the grace period lifts it.`;
  const t = s.time;
  const yours =
    t.phase === 'permanent'
      ? 'Your server time is permanent, so it never runs out.'
      : t.phase === 'pending'
        ? `Your server time (${pendingText(t.pendingMs)}) starts to run when you create your first server.`
        : t.phase === 'active' && t.expiresAt !== null
          ? `Your server time runs out on ${when(t.expiresAt)}.`
          : t.phase === 'grace' && t.graceEndsAt !== null
            ? `Your server is in its grace period now: it ends on ${when(t.graceEndsAt)}. Add time before then to keep the server.`
            : 'Your server time has run out and the grace period is over.';
  return `${rule} ${yours}`;
}

function connect(question: string, links: SetupLinks): string {
  const guide = setupGuideContent.EN.platforms;
  const unresolved = links ? '' : `\n\n${setupGuideMessages.ipUnresolved}`;
  const parts = platformsOf(question).map((p) => {
    const section = guide[p];
    const steps = section.steps.map((step, i) => `${i + 1}. ${step}`).join('\n');
    return `${section.title}\n${steps}\n${extra(p, links)}${section.note}`;
  });
  return `To connect, point the game's hostnames at this platform's game server, then log in as usual. The Setup Guide page has copy buttons for everything below.\n\n${parts.join('\n\n')}${unresolved}`;
}

function extra(p: SetupPlatform, links: SetupLinks): string {
  if (!links) return '';
  if (p === 'windows') return `Hosts lines:\n${links.hostsLines.join('\n')}\n`;
  return p === 'android' ? `Tunnel URL: ${links.tunnelUrl}\n` : `Profile URL: ${links.surgeUrl}\n`;
}

/** The one permission whose name does not say what it allows. */
const ACTIONS: CollaboratorPermission = 'server:actions';
const permissionList = collaboratorPermissions.map((p) => (p === ACTIONS ? `${p} (start, stop, restart)` : p));

function collaborator(s: CallerState): string {
  const how = `The server owner opens the Collaborators page, enters the player (their Discord account must have signed in to Canopy and registered a GrowID), ticks the permissions to grant and saves. Permissions: ${permissionList.slice(0, -1).join(', ')} and ${permissionList.at(-1)}. Collaborators cannot create or delete the server, renew it or use the shop.`;
  if (!s.server) return `${how} You need a server of your own first.`;
  if (s.server.role === 'collaborator')
    return `${how} You are a collaborator on ${s.server.name} with ${s.server.permissions.length > 0 ? s.server.permissions.join(', ') : 'no permissions'}, so only its owner can add collaborators.`;
  return `${how} You own ${s.server.name}, so you can add collaborators.`;
}

function fallback(s: CallerState): string {
  return `I can help with: how to start your server, why Start is disabled, what the grace period means, how to connect from Windows, Android or iOS, and how to add a collaborator. ${serverSummary(s)}`;
}

/** The offline helper's answer to a question, from the built-in help and the caller's live state. */
export function offlineAnswer(question: string, state: CallerState, links: SetupLinks): string {
  const answers: Record<OfflineTopic, () => string> = {
    start_disabled: () => startDisabled(state),
    start: () => startHowTo(state),
    grace: () => grace(state),
    connect: () => connect(question, links),
    collaborator: () => collaborator(state),
    fallback: () => fallback(state),
  };
  return `${answers[topicOf(question)]()}\n\n(${assistantMessages.offlineDisclaimer})`;
}
