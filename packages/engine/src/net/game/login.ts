import { readGameToken } from '@canopy/contract/game-token';

/**
 * Tokens seen, by nonce, until they expire: each token logs in once. `seen` outlives one wake of the game
 * network (game-network.ts keeps it), so a token used before a sleep is still refused after the next wake.
 */
export function createNonceBook(seen = new Map<string, number>()) {
  return {
    /** True the first time a nonce is offered before `exp`; drops expired ones as it goes. */
    claim(nonce: string, exp: number, now: number): boolean {
      if (seen.size > 0 && seen.size % 64 === 0) for (const [n, e] of seen) if (e <= now) seen.delete(n);
      if (seen.has(nonce)) return false;
      seen.set(nonce, exp);
      return true;
    },
  };
}

export type NonceBook = ReturnType<typeof createNonceBook>;

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
