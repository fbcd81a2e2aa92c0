import { z } from 'zod';

/** What an owner's Discord webhook can be told about their server. */
export const SERVER_ALERT_EVENTS = [
  'started',
  'stopped',
  'crashed',
  'crash_loop',
  'time_24h',
  'time_1h',
  'grace_started',
  'deleted',
  'backup_done',
  'backup_failed',
  'player_peak',
] as const;
export type ServerAlertEvent = (typeof SERVER_ALERT_EVENTS)[number];

/** How each alert kind is named on the page. */
export const serverAlertEventLabels: Record<ServerAlertEvent, string> = {
  started: 'Server started',
  stopped: 'Server stopped',
  crashed: 'Server crashed (with the last console lines)',
  crash_loop: 'Crash loop: left offline',
  time_24h: 'Server time ends in 24 hours',
  time_1h: 'Server time ends in 1 hour',
  grace_started: 'Grace period started',
  deleted: 'Server deleted',
  backup_done: 'Backup done',
  backup_failed: 'Backup failed',
  player_peak: 'New player peak',
};

export const alertMessages = {
  badUrl: 'Enter a Discord webhook URL (https://discord.com/api/webhooks/…).',
  urlRequired: 'Enter the Discord webhook URL.',
  noHook: 'No Discord webhook is set for this server.',
  saved: 'Discord alerts saved.',
  removed: 'Discord alerts removed.',
  testQueued: 'A test alert is on its way to your Discord channel.',
  onlyOwner: 'Only the server owner can manage Discord alerts.',
  needServer: 'You need a server to set up Discord alerts.',
} as const;

/** PUT …/server/alerts: the events wanted, and the webhook URL (omitted: keep the one stored). */
export const serverAlertsRequestSchema = z.object({
  url: z.string().trim().max(300, alertMessages.badUrl).optional(),
  events: z.array(z.enum(SERVER_ALERT_EVENTS)).max(SERVER_ALERT_EVENTS.length),
});
export type ServerAlertsRequest = z.infer<typeof serverAlertsRequestSchema>;

/** GET …/server/alerts: the webhook as a hint only (its token never leaves the api), and the events chosen. */
export const serverAlertsSchema = z.object({
  configured: z.boolean(),
  /** e.g. https://discord.com/api/webhooks/1234…/••••; null when none is set. */
  urlHint: z.string().nullable(),
  events: z.array(z.enum(SERVER_ALERT_EVENTS)),
});
export type ServerAlerts = z.infer<typeof serverAlertsSchema>;

/** Test alerts an owner may ask for per minute (each one is a post to their channel). */
export const ALERT_TEST_RATE_LIMIT = { max: 10, windowMs: 60_000 } as const;
