import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The game login token (docs/decisions/0026-playable-servers.md). The gateway's login page issues it once a
 * player signed in with a GrowID of a hosted server; the client hands it to the gateway's ENet front (which
 * reads the port to redirect to) and then to that server's engine (which reads the GrowID). It carries two
 * MACs: one with the gateway's key, one with a key only the api and that one engine know (derived from the
 * engine's control secret), so the front cannot be sent elsewhere and no engine accepts another's token.
 * Node's crypto only: engines load this at start, and it must stay light.
 */
export interface GameTicket {
  /** The hosted server's UDP game port: where the front sends the client. */
  port: number;
  /**
   * The host the front sends the client to, when the runtime decides it (a Kubernetes node, ADR 0043); absent: the
   * gateway's own public address, where every engine of the local runtime listens.
   */
  host?: string;
  /** The hosted server's name (shown by the front's log; the engine does not need it). */
  server: string;
  /** The GrowID the player signed in with, as stored in that server. */
  growId: string;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** Random; an engine accepts each token once. */
  nonce: string;
}

/** How long a token is good for: the client uses it twice within seconds of the login page. */
export const GAME_TOKEN_TTL_MS = 120_000;
/** Longest token read (the client sends it back in a text packet field). */
export const GAME_TOKEN_MAX_LENGTH = 512;

const MAC_BYTES = 16;
const b64 = (bytes: Buffer) => bytes.toString('base64url');

/** The per-server key, from that engine's control secret: the api and that engine alone can derive it. */
export function gameServerKey(controlSecret: string): Buffer {
  return createHmac('sha256', controlSecret).update('canopy game token v1').digest();
}

const mac = (key: Buffer, label: string, payload: string) =>
  createHmac('sha256', key).update(`${label}.${payload}`).digest().subarray(0, MAC_BYTES);

/** Issues a token for one login. */
export function signGameToken(
  ticket: Omit<GameTicket, 'nonce' | 'exp'>,
  keys: { gateway: Buffer; server: Buffer },
  now: number,
): string {
  const full: GameTicket = { ...ticket, exp: now + GAME_TOKEN_TTL_MS, nonce: b64(randomBytes(12)) };
  const payload = b64(Buffer.from(JSON.stringify(full)));
  return `${payload}.${b64(mac(keys.gateway, 'gateway', payload))}.${b64(mac(keys.server, 'server', payload))}`;
}

/**
 * How long after its expiry a token still serves as a returning player's saved sign-in
 * (`/player/growid/checktoken`, ADR 0027): the client keeps the last token and sends it back instead of a password.
 */
export const GAME_TOKEN_REFRESH_WINDOW_MS = 30 * 86_400_000;

// The ticket of a token whose `side` MAC is `key`'s, whatever its expiry; undefined for anything else.
function verifiedTicket(token: string, side: 'gateway' | 'server', key: Buffer): GameTicket | undefined {
  if (typeof token !== 'string' || token.length > GAME_TOKEN_MAX_LENGTH) return undefined;
  const [payload, gatewayMac, serverMac, extra] = token.split('.');
  if (!payload || !gatewayMac || !serverMac || extra !== undefined) return undefined;
  const given = Buffer.from(side === 'gateway' ? gatewayMac : serverMac, 'base64url');
  const expected = mac(key, side, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let ticket: GameTicket;
  try {
    ticket = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as GameTicket;
  } catch {
    return undefined;
  }
  if (
    typeof ticket !== 'object' ||
    ticket === null ||
    !Number.isInteger(ticket.port) ||
    (ticket.host !== undefined && typeof ticket.host !== 'string') ||
    typeof ticket.growId !== 'string' ||
    typeof ticket.server !== 'string' ||
    typeof ticket.nonce !== 'string' ||
    typeof ticket.exp !== 'number' ||
    !Number.isFinite(ticket.exp)
  )
    return undefined;
  return ticket;
}

/**
 * Reads a token with one of its two keys: 'gateway' checks the first MAC, 'server' the second. Answers the
 * ticket, 'expired', or undefined for anything malformed or forged.
 */
export function readGameToken(
  token: string,
  side: 'gateway' | 'server',
  key: Buffer,
  now: number,
): GameTicket | 'expired' | undefined {
  const ticket = verifiedTicket(token, side, key);
  if (!ticket) return undefined;
  return ticket.exp <= now ? 'expired' : ticket;
}

/**
 * Reads a saved sign-in: a token whose `side` MAC is valid and that expired at most `windowMs` before `now`
 * (or has not expired yet). Answers the ticket, 'too_old' past the window, or undefined for anything malformed
 * or forged. The gateway reads it with its key, then with the named server's key (a server deleted and made
 * again under the same name has a new one, so its old players' tokens stop there).
 */
export function readRefreshableGameToken(
  token: string,
  side: 'gateway' | 'server',
  key: Buffer,
  now: number,
  windowMs = GAME_TOKEN_REFRESH_WINDOW_MS,
): GameTicket | 'too_old' | undefined {
  const ticket = verifiedTicket(token, side, key);
  if (!ticket) return undefined;
  return ticket.exp + windowMs < now ? 'too_old' : ticket;
}
