import { serverPageMessages as p } from '@canopy/contract';
import type { AppContext } from '../context.ts';
import { AppError, conflict } from '../errors.ts';
import { type ControlClient, ControlError } from '../runtime/control-client.ts';
import type { ServerRow } from '../servers/servers.repo.ts';

/** The running engine's control API, or the spec's refusal for a server that is not ONLINE. */
export function onlineEngine(ctx: AppContext, server: ServerRow, offlineMessage: string): ControlClient {
  const status = ctx.servers.runtime.state(server.id).status;
  if (status === 'STARTING' || status === 'RESTARTING') throw conflict(p.serverStarting, 'server_starting');
  if (status === 'STOPPING') throw conflict(p.serverStopping, 'server_stopping');
  const control = ctx.servers.runtime.control(server.id);
  if (status !== 'ONLINE' || !control) throw conflict(offlineMessage, 'server_offline');
  return control;
}

/** Calls the engine; its refusals (4xx) reach the user with their message, anything else is a 502. */
export async function engineCall<T>(control: ControlClient, method: string, path: string, body?: unknown): Promise<T> {
  try {
    return await control.request<T>(method, path, body);
  } catch (error) {
    if (error instanceof ControlError && error.status >= 400 && error.status < 500)
      throw new AppError(error.status === 401 ? 502 : error.status, 'engine_refused', error.message);
    throw new AppError(502, 'engine_unavailable', 'The server did not answer. Please try again.');
  }
}
