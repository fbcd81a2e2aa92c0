import { type GatewayLoginRequest, gatewayMessages } from '@canopy/contract';
import { gameServerKey, readRefreshableGameToken, signGameToken } from '@canopy/contract/game-token';
import type { AppContext } from '../context.ts';
import { ControlError } from '../runtime/control-client.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { gatewayRepo } from './gateway.repo.ts';

/** Why a login was refused: a stable code, the HTTP status and the text the player reads. */
export class GatewayRefusal extends Error {
  readonly code: string;
  readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const refuse = (status: number, code: string, message: string) => new GatewayRefusal(status, code, message);

/** A successful login: the game token for the front and that server's engine. */
export interface GatewayLogin {
  token: string;
  growId: string;
  server: string;
  created: boolean;
}

const ownerBanned = (row: { owner_banned: number; owner_ban_expires: number | null }, now: number) =>
  Number(row.owner_banned) === 1 && (row.owner_ban_expires === null || Number(row.owner_ban_expires) > now);

/**
 * Signs a player in to a hosted server (or creates the GrowID there) and issues the game token. The
 * password is checked by that server's engine, which keeps the hashes (ADR 0026); every refusal says why.
 */
export async function loginToServer(ctx: AppContext, gatewayKey: Buffer, input: GatewayLoginRequest) {
  if ((await settingsRepo.load(ctx.db)).maintenance) throw refuse(503, 'maintenance', gatewayMessages.maintenance);
  const row = await gatewayRepo.findServerByName(ctx.db, input.server);
  if (!row) throw refuse(404, 'unknown_server', gatewayMessages.unknownServer(input.server));
  if (ownerBanned(row, ctx.now())) throw refuse(403, 'owner_banned', gatewayMessages.ownerBanned(row.name));
  const spec = ctx.servers.spec(row);
  const control = ctx.servers.runtime.state(row.id).status === 'ONLINE' ? ctx.servers.runtime.control(row.id) : null;
  if (!control) throw refuse(503, 'server_offline', gatewayMessages.serverOffline(row.name));

  const credentials = { name: input.growId, password: input.password };
  let growId: string;
  try {
    const answer = await control.request<{ name: string }>(
      'POST',
      input.create ? '/game/register' : '/game/login',
      credentials,
    );
    growId = answer.name;
  } catch (error) {
    throw engineRefusal(error, input, row.name);
  }
  const token = signGameToken(
    { port: spec.gamePort, server: row.name, growId },
    { gateway: gatewayKey, server: gameServerKey(spec.secret) },
    ctx.now(),
  );
  return { token, growId, server: row.name, created: input.create } satisfies GatewayLogin;
}

/**
 * A returning player's saved sign-in (`/player/growid/checktoken`, ADR 0027): the last game token the client
 * was given stands in for the password while both its MACs hold (the gateway's, and the named server's own, so
 * a server deleted and made again under that name refuses it) and it expired at most 30 days ago. The server
 * must still exist, be online and not closed, and the GrowID must still exist there unbanned; the answer is a
 * fresh token, as a password sign-in gives.
 */
export async function refreshLogin(ctx: AppContext, gatewayKey: Buffer, refreshToken: string) {
  if ((await settingsRepo.load(ctx.db)).maintenance) throw refuse(503, 'maintenance', gatewayMessages.maintenance);
  const now = ctx.now();
  const ticket = readRefreshableGameToken(refreshToken, 'gateway', gatewayKey, now);
  if (ticket === 'too_old') throw refuse(401, 'token_expired', gatewayMessages.savedSignInExpired);
  if (!ticket) throw refuse(401, 'token_invalid', gatewayMessages.savedSignInInvalid);
  const row = await gatewayRepo.findServerByName(ctx.db, ticket.server);
  if (!row) throw refuse(404, 'unknown_server', gatewayMessages.unknownServer(ticket.server));
  const spec = ctx.servers.spec(row);
  if (!readRefreshableGameToken(refreshToken, 'server', gameServerKey(spec.secret), now))
    throw refuse(401, 'token_invalid', gatewayMessages.savedSignInInvalid);
  if (ownerBanned(row, now)) throw refuse(403, 'owner_banned', gatewayMessages.ownerBanned(row.name));
  const control = ctx.servers.runtime.state(row.id).status === 'ONLINE' ? ctx.servers.runtime.control(row.id) : null;
  if (!control) throw refuse(503, 'server_offline', gatewayMessages.serverOffline(row.name));

  let player: { name: string; banned: boolean };
  try {
    player = await control.request('GET', `/players/${encodeURIComponent(ticket.growId)}`);
  } catch (error) {
    if (error instanceof ControlError && (error.status === 404 || error.status === 400))
      throw refuse(401, 'growid_gone', gatewayMessages.growIdGone(ticket.growId, row.name));
    throw refuse(502, 'server_no_answer', gatewayMessages.serverNoAnswer(row.name));
  }
  if (player.banned) throw refuse(403, 'growid_banned', gatewayMessages.growIdBanned(player.name, row.name));
  const token = signGameToken(
    { port: spec.gamePort, server: row.name, growId: player.name },
    { gateway: gatewayKey, server: gameServerKey(spec.secret) },
    now,
  );
  return { token, growId: player.name, server: row.name, created: false } satisfies GatewayLogin;
}

function engineRefusal(error: unknown, input: GatewayLoginRequest, server: string): GatewayRefusal {
  if (!(error instanceof ControlError)) return refuse(502, 'server_no_answer', gatewayMessages.serverNoAnswer(server));
  switch (error.status) {
    case 401:
      return refuse(401, 'wrong_password', gatewayMessages.wrongPassword);
    case 403:
      return refuse(403, 'growid_banned', gatewayMessages.growIdBanned(input.growId, server));
    // Without `create` a 409 is the engine stopping, not a name.
    case 409:
      return input.create
        ? refuse(409, 'name_taken', gatewayMessages.nameTaken(input.growId, server))
        : refuse(502, 'server_no_answer', gatewayMessages.serverNoAnswer(server));
    case 429:
      return refuse(429, 'rate_limited', gatewayMessages.tooManyAttempts);
    case 400:
      return refuse(400, 'invalid', error.message);
    default:
      return refuse(502, 'server_no_answer', gatewayMessages.serverNoAnswer(server));
  }
}
