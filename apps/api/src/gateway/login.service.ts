import { type GatewayLoginRequest, gatewayMessages } from '@canopy/contract';
import { type GameTicket, gameServerKey, readRefreshableGameToken, signGameToken } from '@canopy/contract/game-token';
import { ControlError } from '../runtime/control-client.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { gatewayRepo } from './gateway.repo.ts';
import type { GatewayContext } from './tenants.ts';

/**
 * Why a login was refused: a stable code (the x-canopy-error header) and the text the player reads. Every
 * refusal answers the login page (status 200, ADR 0027), so no HTTP status is kept.
 */
export class GatewayRefusal extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

const refuse = (code: string, message: string) => new GatewayRefusal(code, message);

/** A successful login: the game token for the front and that server's engine. */
export interface GatewayLogin {
  token: string;
  growId: string;
  server: string;
  created: boolean;
}

const ownerBanned = (row: { owner_banned: number; owner_ban_expires: number | null }, now: number) =>
  Number(row.owner_banned) === 1 && (row.owner_ban_expires === null || Number(row.owner_ban_expires) > now);

/** The hosted server a sign-in is for, refused unless the platform is open, it exists, is not closed and runs. */
async function openServer(ctx: GatewayContext, name: string, now: number) {
  if ((await settingsRepo.load(ctx.db)).maintenance) throw refuse('maintenance', gatewayMessages.maintenance);
  const row = await gatewayRepo.findServerByName(ctx.db, name);
  if (!row) throw refuse('unknown_server', gatewayMessages.unknownServer(name));
  if (ownerBanned(row, now)) throw refuse('owner_banned', gatewayMessages.ownerBanned(row.name));
  const spec = ctx.tenants.spec(row);
  const control = ctx.tenants.control(row);
  if (!control) throw refuse('server_offline', gatewayMessages.serverOffline(row.name));
  return { row, spec, control, address: ctx.tenants.address(row) };
}

/** The game token of a sign-in: MACed with the gateway's key and with that server's own. */
function issue(
  gatewayKey: Buffer,
  { row, spec, address }: Pick<Awaited<ReturnType<typeof openServer>>, 'row' | 'spec' | 'address'>,
  growId: string,
  created: boolean,
  now: number,
): GatewayLogin {
  // The runtime's address when it names one (kubernetes); else the gateway's public address and the game port.
  const to = address ? { host: address.host, port: address.port } : { port: spec.gamePort };
  const token = signGameToken(
    { ...to, server: row.name, growId },
    { gateway: gatewayKey, server: gameServerKey(spec.secret) },
    now,
  );
  return { token, growId, server: row.name, created };
}

/**
 * Signs a player in to a hosted server (or creates the GrowID there) and issues the game token. The
 * password is checked by that server's engine, which keeps the hashes (ADR 0026); every refusal says why.
 */
export async function loginToServer(ctx: GatewayContext, gatewayKey: Buffer, input: GatewayLoginRequest) {
  const now = ctx.now();
  const server = await openServer(ctx, input.server, now);
  const credentials = { name: input.growId, password: input.password };
  let growId: string;
  try {
    const answer = await server.control.request<{ name: string }>(
      'POST',
      input.create ? '/game/register' : '/game/login',
      credentials,
    );
    growId = answer.name;
  } catch (error) {
    throw engineRefusal(error, input, server.row.name);
  }
  return issue(gatewayKey, server, growId, input.create, now);
}

/**
 * Reads a saved sign-in's gateway MAC (no I/O): the ticket it names, or the refusal. The caller counts the
 * attempt against that server and GrowID before anything is looked up.
 */
export function readSavedSignIn(gatewayKey: Buffer, refreshToken: string, now: number): GameTicket {
  const ticket = readRefreshableGameToken(refreshToken, 'gateway', gatewayKey, now);
  if (ticket === 'too_old') throw refuse('token_expired', gatewayMessages.savedSignInExpired);
  if (!ticket) throw refuse('token_invalid', gatewayMessages.savedSignInInvalid);
  return ticket;
}

/**
 * A returning player's saved sign-in (`/player/growid/checktoken`, ADR 0027): the last game token the client
 * was given stands in for the password while both its MACs hold (the gateway's, read by readSavedSignIn, and the
 * named server's own, so a server deleted and made again under that name refuses it) and it expired at most 30
 * days ago. The server must still exist, be online and not closed, and the GrowID must still exist there
 * unbanned; the answer is a fresh token, as a password sign-in gives.
 */
export async function refreshLogin(ctx: GatewayContext, gatewayKey: Buffer, refreshToken: string, ticket: GameTicket) {
  const now = ctx.now();
  const server = await openServer(ctx, ticket.server, now);
  if (!readRefreshableGameToken(refreshToken, 'server', gameServerKey(server.spec.secret), now))
    throw refuse('token_invalid', gatewayMessages.savedSignInInvalid);
  let player: { name: string; banned: boolean };
  try {
    player = await server.control.request('GET', `/players/${encodeURIComponent(ticket.growId)}`);
  } catch (error) {
    if (error instanceof ControlError && (error.status === 404 || error.status === 400))
      throw refuse('growid_gone', gatewayMessages.growIdGone(ticket.growId, server.row.name));
    throw refuse('server_no_answer', gatewayMessages.serverNoAnswer(server.row.name));
  }
  if (player.banned) throw refuse('growid_banned', gatewayMessages.growIdBanned(player.name, server.row.name));
  return issue(gatewayKey, server, player.name, false, now);
}

function engineRefusal(error: unknown, input: GatewayLoginRequest, server: string): GatewayRefusal {
  if (!(error instanceof ControlError)) return refuse('server_no_answer', gatewayMessages.serverNoAnswer(server));
  switch (error.status) {
    case 401:
      return refuse('wrong_password', gatewayMessages.wrongPassword);
    case 403:
      return refuse('growid_banned', gatewayMessages.growIdBanned(input.growId, server));
    // Without `create` a 409 is the engine stopping, not a name.
    case 409:
      return input.create
        ? refuse('name_taken', gatewayMessages.nameTaken(input.growId, server))
        : refuse('server_no_answer', gatewayMessages.serverNoAnswer(server));
    case 429:
      return refuse('rate_limited', gatewayMessages.tooManyAttempts);
    case 400:
      return refuse('invalid', error.message);
    default:
      return refuse('server_no_answer', gatewayMessages.serverNoAnswer(server));
  }
}
