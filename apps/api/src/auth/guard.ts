import { messages } from '@canopy/contract';
import type { AppContext } from '../context.ts';
import { unauthorized } from '../errors.ts';
import type { UserRow } from '../users/users.repo.ts';
import { sessionRepo } from './session.repo.ts';

/** The signed-in user behind a request. */
export interface Caller {
  user: UserRow;
  familyId: string;
  /** When the session token stops being valid (ms since the epoch). */
  expiresAt: number;
}

/** Resolves the bearer session token to its user, or refuses with 401. */
export async function authenticate(ctx: AppContext, authorization: string | undefined): Promise<Caller> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw unauthorized(messages.notAuthenticated);
  const claims = ctx.signer.verify(match[1], ctx.now());
  if (claims === 'expired') throw unauthorized(messages.sessionExpired, 'session_expired');
  if (!claims) throw unauthorized(messages.invalidToken, 'invalid_token');
  const session = await sessionRepo.find(ctx.db, claims.sub, claims.fam);
  // A revoked family (logout or detected reuse) ends the sessions it issued, not only its refresh tokens.
  if (!session || session.familyRevoked) throw unauthorized(messages.invalidToken, 'invalid_token');
  return { user: session.user, familyId: claims.fam, expiresAt: claims.exp * 1000 };
}
