// What a hosted server's files take, as its engine measures them (GET /usage, docs/engine-files-api.md), and the
// figure recorded per server (servers.data_bytes) so that counting an offline server costs no engine (ADR 0041).
import type { AppContext } from '../context.ts';
import type { ServerRow } from './servers.repo.ts';
import { serversRepo } from './servers.repo.ts';

/** Asks the server's engine (the running one, else a files-only one) and records the answer. */
export async function measureServerData(ctx: AppContext, server: ServerRow): Promise<number> {
  const { bytes } = await ctx.servers.runtime.files(ctx.servers.spec(server)).usage();
  return recordServerData(ctx, server, bytes);
}

/** Records what the server's engine just reported it stores (a caller that asked it already); resolves to it. */
export async function recordServerData(ctx: AppContext, server: ServerRow, bytes: number): Promise<number> {
  await serversRepo
    .setDataBytes(ctx.db, server.id, bytes)
    .catch((error) => ctx.log.warn({ err: error, server: server.name }, 'could not record storage use'));
  return bytes;
}

/**
 * The server's data bytes without starting anything: a running engine is asked (one call on loopback), an offline
 * server counts by the figure recorded when it was last measured (its files change only through the api's calls,
 * which measure again, and its database only while its engine runs). Only a server never measured is asked
 * through a files-only engine, once. `recorded` is the row's data_bytes when the caller has read it already.
 */
export async function serverDataBytes(ctx: AppContext, server: ServerRow, recorded?: number | null): Promise<number> {
  const known = recorded !== undefined ? recorded : await serversRepo.dataBytes(ctx.db, server.id);
  if (known !== null && ctx.servers.runtime.state(server.id).status !== 'ONLINE') return known;
  try {
    return await measureServerData(ctx, server);
  } catch (error) {
    // A refused or failed measure (the server is starting, its engine does not answer) counts what was known.
    if (known !== null) return known;
    throw error;
  }
}
