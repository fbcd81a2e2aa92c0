import type { ServerFiles } from '../../src/runtime/server-files.ts';
import { serversRepo } from '../../src/servers/servers.repo.ts';
import type { TestApi } from './harness.ts';

/**
 * A hosted server's files as the api reaches them: through its engine's file API (the running engine, else a
 * files-only engine), never by path (ADR 0041).
 */
export async function serverFiles(api: TestApi, serverId: string): Promise<ServerFiles> {
  const row = await serversRepo.findById(api.ctx.db, serverId);
  if (!row) throw new Error(`no server ${serverId}`);
  return api.ctx.servers.runtime.files(api.ctx.servers.spec(row));
}

/** A file of the server as text (undefined when it has none). */
export async function serverFileText(api: TestApi, serverId: string, name: string): Promise<string | undefined> {
  return (await (await serverFiles(api, serverId)).read(name))?.toString('utf8');
}
