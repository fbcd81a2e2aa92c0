import { alertMessages, type ServerAlerts, type ServerAlertsRequest } from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import type { AppContext } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { alertsRepo, eventsOf } from './alerts.repo.ts';
import { alertDeps, notifyServer } from './notify.ts';
import { sealerOf } from './seal.ts';
import { checkWebhookUrl, webhookHint } from './webhook-url.ts';

/** The server's Discord alerts as the owner sees them: a hint of the URL, never the URL. */
export async function getServerAlerts(ctx: AppContext, access: ServerAccess): Promise<ServerAlerts> {
  const hook = await alertsRepo.hook(ctx.db, access.server.id);
  if (!hook) return { configured: false, urlHint: null, events: [] };
  return { configured: true, urlHint: hook.url_hint, events: eventsOf(hook) };
}

/** Sets the webhook (sealed) and the events; a request without a URL keeps the stored one. */
export async function saveServerAlerts(ctx: AppContext, access: ServerAccess, body: ServerAlertsRequest) {
  const serverId = access.server.id;
  const events = [...new Set(body.events)];
  if (body.url) {
    const url = checkWebhookUrl(body.url, ctx.config.alerts.extraBase);
    const sealed = { url: sealerOf(ctx.config).seal(url), hint: webhookHint(url) };
    await alertsRepo.saveHook(ctx.db, serverId, { sealed, events }, ctx.now());
  } else {
    if (!(await alertsRepo.hook(ctx.db, serverId))) throw badRequest(alertMessages.urlRequired, 'webhook_url_required');
    await alertsRepo.saveHook(ctx.db, serverId, { events }, ctx.now());
  }
  return { message: alertMessages.saved };
}

/** Removes the webhook; alerts already queued for it are still sent. */
export async function removeServerAlerts(ctx: AppContext, access: ServerAccess) {
  const res = await alertsRepo.removeHook(ctx.db, access.server.id);
  if (res.changes === 0) throw notFound(alertMessages.noHook, 'no_alert_hook');
  return { message: alertMessages.removed };
}

/** Queues a test alert to the stored webhook (the Test button): it arrives within the delivery interval. */
export async function testServerAlerts(ctx: AppContext, access: ServerAccess) {
  if (!(await alertsRepo.hook(ctx.db, access.server.id))) throw notFound(alertMessages.noHook, 'no_alert_hook');
  await notifyServer(alertDeps(ctx), access.server.id, 'test', {
    serverName: access.server.name,
    text: 'Discord alerts work: this channel will hear about the events you chose.',
  });
  return { message: alertMessages.testQueued };
}
