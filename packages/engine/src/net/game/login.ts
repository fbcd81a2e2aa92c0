import { readGameToken } from '@canopy/contract/game-token';

/** Where the nonces of spent tokens are kept (players/used-tokens.repo.ts: in the database, across restarts). */
export interface NonceBook {
  /** True the first time a nonce is offered. */
  claim(nonce: string, exp: number, now: number): boolean;
}

/** The GrowID a login's token names, or the reason it is refused (shown to the player). */
export function checkLoginToken(
  token: string | undefined,
  key: Buffer,
  nonces: NonceBook,
  now: number,
): { growId: string } | { refused: string } {
  if (!token) return { refused: 'No login token. Log in through the login page.' };
  const ticket = readGameToken(token, 'server', key, now);
  if (ticket === 'expired') return { refused: 'Your login has expired. Log in again.' };
  if (!ticket) return { refused: 'That login is not valid for this server.' };
  if (!nonces.claim(ticket.nonce, ticket.exp, now)) return { refused: 'That login was already used. Log in again.' };
  return { growId: ticket.growId };
}
