import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { DiscordUser } from '@canopy/contract';

const DEV_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A stable Discord-like snowflake and discriminator for a development username. */
export function devUser(username: string): DiscordUser {
  const name = username.trim();
  const hex = createHash('sha256').update(name.toLowerCase()).digest('hex');
  const id = (BigInt(`0x${hex.slice(0, 15)}`) % 900000000000000000n) + 100000000000000000n;
  const discriminator = String((Number.parseInt(hex.slice(15, 21), 16) % 9999) + 1).padStart(4, '0');
  return { id: id.toString(), username: name, discriminator, avatar: null, email: `${name.toLowerCase()}@canopy.test` };
}

const mac = (key: string, body: string) => createHmac('sha256', `dev-idp:${key}`).update(body).digest('base64url');

/** An access token the stand-in's /users/@me accepts: signed, so it survives restarts without storage. */
export function issueDevToken(key: string, user: DiscordUser, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ ...user, exp: now + DEV_TOKEN_TTL_MS })).toString('base64url');
  return `dev.${body}.${mac(key, body)}`;
}

/** The user behind a development access token, or null when it is forged or expired. */
export function readDevToken(key: string, token: string, now = Date.now()): DiscordUser | null {
  const [prefix, body, sig] = token.split('.');
  if (prefix !== 'dev' || !body || !sig) return null;
  const expected = Buffer.from(mac(key, body));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const { exp, ...user } = JSON.parse(Buffer.from(body, 'base64url').toString());
    return typeof exp === 'number' && exp > now ? (user as DiscordUser) : null;
  } catch {
    return null;
  }
}
