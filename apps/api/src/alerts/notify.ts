import { type ServerAlertEvent, serverAlertEventLabels } from '@canopy/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/db.ts';
import { type AlertHookRow, alertsRepo, eventsOf } from './alerts.repo.ts';
import { destinationOf } from './seal.ts';

/** What queuing an alert needs (the registry has these without the whole AppContext). */
export interface AlertDeps {
  db: Db;
  now: () => number;
  log?: (msg: string) => void;
}

/** The queuing deps of a service that has the whole context. */
export function alertDeps(ctx: AppContext): AlertDeps {
  return { db: ctx.db, now: ctx.now, log: (msg) => ctx.log.warn(msg) };
}

/** What an alert says: a line under the title, and optional fields (e.g. the last console lines). */
export interface AlertBody {
  serverName: string;
  text: string;
  /** Shown as a code block: console output. */
  lines?: string[];
}

// Embed colours: green for good news, red for trouble, amber for warnings, grey otherwise.
const COLOURS: Record<ServerAlertEvent | 'test', number> = {
  started: 0x2ecc71,
  stopped: 0x95a5a6,
  crashed: 0xe74c3c,
  crash_loop: 0xe74c3c,
  time_24h: 0xf1c40f,
  time_1h: 0xe67e22,
  grace_started: 0xe67e22,
  deleted: 0x95a5a6,
  backup_done: 0x2ecc71,
  backup_failed: 0xe74c3c,
  player_peak: 0x3498db,
  test: 0x5865f2,
};

// Discord refuses an embed description over 4096 characters; the last lines are cut from the front.
const DESCRIPTION_MAX = 4000;

/** Discord's webhook body: one embed; no mention in a console line may ping anyone. */
export function discordPayload(event: ServerAlertEvent | 'test', body: AlertBody, at: number): string {
  let description = body.text;
  if (body.lines?.length) {
    const room = DESCRIPTION_MAX - description.length - 12;
    let lines = body.lines.join('\n').replaceAll('```', "'''");
    if (lines.length > room) lines = `…${lines.slice(lines.length - room + 1)}`;
    description += `\n\`\`\`\n${lines}\n\`\`\``;
  }
  const title = event === 'test' ? 'Test alert' : serverAlertEventLabels[event].replace(/ \(.*\)$/, '');
  return JSON.stringify({
    username: 'Canopy',
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: `${title}: ${body.serverName}`.slice(0, 256),
        description,
        color: COLOURS[event],
        timestamp: new Date(at).toISOString(),
      },
    ],
  });
}

/** Queues `event` for a hook already read, when it subscribes to it ('test': always), inside `tx`. */
export async function queueFor(
  tx: Db,
  hook: AlertHookRow | undefined,
  event: ServerAlertEvent | 'test',
  body: AlertBody,
  now: number,
): Promise<void> {
  if (!hook || (event !== 'test' && !eventsOf(hook).includes(event))) return;
  const alert = {
    serverId: hook.server_id,
    // The hook as saved (a new URL is a new destination); the rate limit counts the opened URL itself.
    destination: destinationOf(hook.url_sealed),
    urlSealed: hook.url_sealed,
    event,
    payload: discordPayload(event, body, now),
  };
  await alertsRepo.enqueueIn(tx, alert, now);
}

/**
 * Queues an alert for the server's webhook when it subscribes to `event`. Never throws and never waits on Discord:
 * the action that caused it goes on; the leader's delivery loop sends it (delivery.ts).
 */
export async function notifyServer(
  deps: AlertDeps,
  serverId: string,
  event: ServerAlertEvent | 'test',
  body: AlertBody,
): Promise<void> {
  try {
    await deps.db.transaction(async (tx) => queueFor(tx, await alertsRepo.hook(tx, serverId), event, body, deps.now()));
  } catch (error) {
    deps.log?.(`alert ${event} for server ${serverId} not queued: ${(error as Error).message}`);
  }
}

/** The "deleted" alert's text, by who deleted the server. */
export function deletedAlert(serverName: string, by: 'owner' | 'admin' | 'expiry'): AlertBody {
  const who = {
    owner: 'by its owner',
    admin: 'by an administrator',
    expiry: 'because its server time and grace period ran out',
  }[by];
  return { serverName, text: `${serverName} was deleted ${who}, with its worlds and players.` };
}

/** The backup alerts' text: done, or failed with the reason the owner was given. */
export function backupAlert(serverName: string, error: unknown): AlertBody {
  if (!error) return { serverName, text: `A backup of ${serverName} was made.` };
  return { serverName, text: `A backup of ${serverName} failed: ${(error as Error).message}` };
}
