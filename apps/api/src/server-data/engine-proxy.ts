import { hostingMessages as m, serverPageMessages as p } from '@canopy/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError, badRequest, conflict } from '../errors.ts';
import { type ControlClient, ControlError } from '../runtime/control-client.ts';
import type { ServerRow } from '../servers/servers.repo.ts';
import { assertStorageForWrite } from '../servers/storage-quota.ts';
import type { UserRow } from '../users/users.repo.ts';

/** The running engine's control API, or the spec's refusal for a server that is not ONLINE. */
export function onlineEngine(ctx: AppContext, server: ServerRow, offlineMessage: string): ControlClient {
  const status = ctx.servers.runtime.state(server.id).status;
  if (status === 'STARTING' || status === 'RESTARTING') throw conflict(p.serverStarting, 'server_starting');
  if (status === 'STOPPING') throw conflict(p.serverStopping, 'server_stopping');
  // Only while the api re-attaches to its engines after a restart: a moment, then ONLINE or OFFLINE.
  if (status === 'UNKNOWN') throw conflict(p.consoleUnknown, 'server_unknown');
  const control = ctx.servers.runtime.control(server.id);
  if (status !== 'ONLINE' || !control) throw conflict(offlineMessage, 'server_offline');
  return control;
}

/**
 * An engine's failure as the api's: its refusals (4xx) reach the user with their message (and the engine's
 * code, e.g. a refused conditional save's), a full disk on the engine's side is the api's 507 (nothing was
 * saved: the engine rolls the write back), anything else is a 502.
 */
function engineFailure(error: unknown): AppError {
  if (error instanceof ControlError && error.status >= 400 && error.status < 500)
    return new AppError(error.status === 401 ? 502 : error.status, error.code ?? 'engine_refused', error.message);
  if (error instanceof ControlError && error.status === 507) return new AppError(507, 'disk_full', m.diskFull);
  // A frozen engine: the call's timeout fired (AbortSignal.timeout). Said at once; asking again would freeze again.
  if ((error as Error | undefined)?.name === 'TimeoutError')
    return new AppError(504, 'engine_timeout', m.engineTimeout);
  return new AppError(502, 'engine_unavailable', 'The server did not answer. Please try again.');
}

/** Calls the engine with JSON and returns its JSON answer (see engineFailure for its errors). */
export async function engineCall<T>(
  control: ControlClient,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs?: number,
): Promise<T> {
  try {
    return await control.request<T>(method, path, body, timeoutMs);
  } catch (error) {
    throw engineFailure(error);
  }
}

/**
 * A large write that grows the server's data, passed to the engine as the bytes the browser sent, never
 * parsed here; resolves to the engine's answer as bytes (the engine validates it with the contract schema).
 * Refused like engineWrite when it would pass the storage limit.
 */
export async function engineForward(
  ctx: AppContext,
  access: { server: ServerRow; user: UserRow },
  control: ControlClient,
  write: { method: 'PUT' | 'POST'; path: string; raw: Buffer | undefined },
): Promise<Buffer> {
  if (!write.raw) throw badRequest('Request body is required.');
  await assertStorageForWrite(ctx, access.server, write.raw.length, access.user);
  try {
    return await control.forward(write.method, write.path, write.raw);
  } catch (error) {
    throw engineFailure(error);
  }
}

/** A write's size as sent, the estimate of what it adds to the server's storage. */
export function bodyBytes(req: FastifyRequest): number {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > 0 ? declared : Buffer.byteLength(JSON.stringify(req.body ?? null));
}

/**
 * A write through the engine that grows the server's data: refused, with nothing sent to the engine, when
 * the server is at its storage limit or the write (`growth` bytes, see bodyBytes) would take it past.
 */
export async function engineWrite<T>(
  ctx: AppContext,
  access: { server: ServerRow; user: UserRow },
  control: ControlClient,
  write: { method: 'PUT' | 'POST'; path: string; body: unknown; growth: number },
): Promise<T> {
  await assertStorageForWrite(ctx, access.server, write.growth, access.user);
  return engineCall<T>(control, write.method, write.path, write.body);
}
