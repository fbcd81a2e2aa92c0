import { alertMessages } from '@canopy/contract';
import { badRequest } from '../errors.ts';

// Discord's webhook URLs: discord.com or discordapp.com, canary. and ptb. too, /api or /api/v<n>, then the webhook's
// id and token. Anything else is refused, so the panel can never be made to POST to an address of the caller's
// choosing (SSRF): the only other base is the one an operator sets (CANOPY_ALERT_WEBHOOK_BASE).
const DISCORD =
  /^https:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api\/(?:v\d{1,2}\/)?webhooks\/(\d{5,25})\/([\w-]{20,120})$/;
const TAIL = /^(\d{5,25})\/([\w-]{20,120})$/;

/** The URL as it will be stored and called, or a 400 naming what is expected. */
export function checkWebhookUrl(raw: string, extraBase: string | undefined): string {
  const url = raw.trim();
  if (DISCORD.test(url)) return url;
  if (extraBase && url.startsWith(extraBase) && TAIL.test(url.slice(extraBase.length))) return url;
  throw badRequest(alertMessages.badUrl, 'invalid_webhook_url');
}

/** What the owner is shown: the host and the start of the id, never the token. */
export function webhookHint(url: string): string {
  const match = /^(.*\/)(\d{1,25})\/[\w-]+$/.exec(url);
  if (!match) return '••••';
  return `${match[1]}${(match[2] ?? '').slice(0, 4)}…/••••`;
}
