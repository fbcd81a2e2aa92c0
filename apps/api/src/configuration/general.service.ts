import {
  CREATOR_LIST_MAX,
  type CreatorList,
  configurationMessages as c,
  creatorListSchema,
  DEFAULT_AUTOFARM_DELAY_MS,
  defaultServerConfig,
  engineConfigFiles,
  serverConfigSchema,
} from '@canopy/contract';
import type { ServerAccess } from '../access/server-access.ts';
import { logServerAction } from '../activity/server-activity.ts';
import type { AppContext } from '../context.ts';
import { conflict, notFound } from '../errors.ts';
import { assertConfigurable, readConfigFile, reloadIfOnline, serialised, writeConfigFile } from './config-files.ts';
import { cachedServerFile } from './file-cache.ts';

/**
 * The General tab: the creator list (creators.json) and the autofarm delay (server-config.json). Each
 * change is a read-modify-write in the server's turn, then a reload so a running engine applies it at once.
 */

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The creator list as stored (empty when there is none yet). */
export function readCreators(ctx: AppContext, access: ServerAccess): Promise<CreatorList> {
  return readConfigFile(ctx, access, engineConfigFiles.creators, creatorListSchema, () => []);
}

/** Adds a GrowID to the creator list; one already on it (any case) is refused. */
export async function addCreator(ctx: AppContext, access: ServerAccess, growId: string): Promise<void> {
  await serialised(access.server.id, async () => {
    assertConfigurable(ctx, access);
    const creators = await readCreators(ctx, access);
    if (creators.some((name) => same(name, growId))) throw conflict(c.creatorExists(growId), 'creator_exists');
    if (creators.length >= CREATOR_LIST_MAX) throw conflict(c.creatorListFull, 'creator_list_full');
    await writeConfigFile(ctx, access, engineConfigFiles.creators, [...creators, growId]);
  });
  await reloadIfOnline(ctx, access);
  await logServerAction(ctx, access, 'Creator added', growId);
}

/** Removes a GrowID (any case) from the creator list; 404 when it is not on it. */
export async function removeCreator(ctx: AppContext, access: ServerAccess, growId: string): Promise<void> {
  const wanted = growId.trim();
  await serialised(access.server.id, async () => {
    assertConfigurable(ctx, access);
    const creators = await readCreators(ctx, access);
    const kept = creators.filter((name) => !same(name, wanted));
    if (kept.length === creators.length) throw notFound(c.creatorMissing(wanted), 'creator_not_found');
    await writeConfigFile(ctx, access, engineConfigFiles.creators, kept);
  });
  await reloadIfOnline(ctx, access);
  await logServerAction(ctx, access, 'Creator removed', wanted);
}

/** Sets the autofarm delay (ms), keeping any other keys of server-config.json. */
export async function setFarmDelay(ctx: AppContext, access: ServerAccess, amount: number): Promise<void> {
  await serialised(access.server.id, async () => {
    assertConfigurable(ctx, access);
    const current = await readConfigFile(
      ctx,
      access,
      engineConfigFiles.serverConfig,
      serverConfigSchema.loose(),
      () => ({ ...defaultServerConfig }),
    );
    await writeConfigFile(ctx, access, engineConfigFiles.serverConfig, { ...current, autofarmDelay: amount });
  });
  await reloadIfOnline(ctx, access);
  await logServerAction(ctx, access, 'Autofarm delay updated', `${amount} ms`);
}

/**
 * The autofarm delay of a server for the profile call; the default when the file is missing or broken (as the
 * engine does), or cannot be read now. Read by server id (the profile has no ServerAccess), from the file cache:
 * a profile call must not start a files-only engine each time (file-cache.ts).
 */
export async function readAutofarmDelay(ctx: AppContext, serverId: string): Promise<number> {
  try {
    const bytes = await cachedServerFile(ctx, serverId, engineConfigFiles.serverConfig);
    const parsed = serverConfigSchema.safeParse(JSON.parse(bytes?.toString('utf8') ?? 'null'));
    return parsed.success ? parsed.data.autofarmDelay : DEFAULT_AUTOFARM_DELAY_MS;
  } catch {
    return DEFAULT_AUTOFARM_DELAY_MS;
  }
}
