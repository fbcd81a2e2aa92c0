import { randomUUID } from 'node:crypto';
import { type LoginResponse, messages, REFRESH_TOKEN_TTL_SECONDS, type RefreshResponse } from '@canopy/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/db.ts';
import { unauthorized } from '../errors.ts';
import { type UserRow, usersRepo } from '../users/users.repo.ts';
import { fetchDiscordUser } from './discord.ts';
import { type RefreshTokenRow, refreshTokensRepo } from './refresh-tokens.repo.ts';
import { hashToken, newRefreshToken } from './tokens.ts';

/** The cached user record the browser keeps after sign-in. */
export const toSessionUser = (u: UserRow) => ({
  id: u.id,
  username: u.username,
  discriminator: u.discriminator,
  avatar: u.avatar,
  email: u.email,
  growId: u.grow_id,
  isAdmin: u.is_admin === 1,
  isSuperAdmin: u.is_super_admin === 1,
});

async function issueTokens(ctx: AppContext, db: Db, userId: string, familyId: string) {
  const refreshToken = newRefreshToken();
  const now = ctx.now();
  await refreshTokensRepo.insert(db, {
    id: randomUUID(),
    userId,
    familyId,
    hash: hashToken(refreshToken),
    now,
    expiresAt: now + REFRESH_TOKEN_TTL_SECONDS * 1000,
  });
  return { sessionToken: ctx.signer.sign(userId, familyId, now), refreshToken };
}

/** Exchanges a Discord access token for a Canopy session, creating the user on first sign-in. */
export async function signIn(ctx: AppContext, accessToken: string): Promise<LoginResponse> {
  const discordUser = await fetchDiscordUser(ctx.discordApiUrl, accessToken);
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    await usersRepo.upsertFromDiscord(tx, discordUser, now, {
      slots: ctx.config.startSlots,
      serverMs: ctx.config.startServerDays * 24 * 3600 * 1000,
    });
    if (ctx.config.superAdmins.includes(discordUser.id)) await usersRepo.makeSuperAdmin(tx, discordUser.id);
    const user = await usersRepo.findById(tx, discordUser.id);
    if (!user) throw new Error('user vanished after upsert');
    const tokens = await issueTokens(ctx, tx, user.id, randomUUID());
    return { ...tokens, user: toSessionUser(user) };
  });
}

/**
 * How long a rotated refresh token still answers with its successor. Two tabs (or a retried request)
 * refreshing with one token at once are the same client, not a thief: within this window the later ones
 * get the same new refresh token and a fresh session token. After it, a replay is reuse and revokes.
 */
export const REFRESH_GRACE_MS = 20_000;

/** The answer to a token presented again within its grace window, or null when it is reuse. */
async function graceAnswer(ctx: AppContext, tx: Db, row: RefreshTokenRow, now: number) {
  if (row.used_at === null || now - row.used_at > REFRESH_GRACE_MS || !row.successor_sealed) return null;
  const successor = ctx.signer.unseal(row.successor_sealed, row.id);
  if (!successor) return null;
  const next = await refreshTokensRepo.findByHash(tx, hashToken(successor));
  // Only while the successor is unspent: once it has rotated on, the old token has no business here.
  if (!next || next.used_at !== null || next.revoked_at !== null || next.expires_at <= now) return null;
  return { sessionToken: ctx.signer.sign(row.user_id, row.family_id, now), refreshToken: successor };
}

/**
 * Rotates a refresh token. Presenting it again within REFRESH_GRACE_MS answers the same successor;
 * presenting it later revokes its whole family.
 */
export async function refreshSession(ctx: AppContext, refreshToken: string): Promise<RefreshResponse> {
  const now = ctx.now();
  return ctx.db
    .transaction(async (tx) => {
      const row = await refreshTokensRepo.findByHash(tx, hashToken(refreshToken));
      if (!row || row.revoked_at !== null || row.expires_at <= now)
        throw unauthorized(messages.invalidRefreshToken, 'invalid_refresh_token');
      // A sign-out that committed while this family rotated revoked the rows it could see, not the successor
      // that rotation inserted: the family, not the row, decides (as it does for session tokens).
      if (await refreshTokensRepo.isFamilyRevoked(tx, row.family_id)) {
        await refreshTokensRepo.revokeFamily(tx, row.family_id, now);
        return 'revoked' as const;
      }
      if (row.used_at === null && (await refreshTokensRepo.markUsed(tx, row.id, now))) {
        const tokens = await issueTokens(ctx, tx, row.user_id, row.family_id);
        // Hashes cannot give the successor back, so it is kept sealed (see SessionSigner), bound to this
        // row, and dropped once its window has closed: by the family's next rotation, or on revocation.
        await refreshTokensRepo.setSuccessor(tx, row.id, ctx.signer.seal(tokens.refreshToken, row.id));
        await refreshTokensRepo.forgetSuccessors(tx, row.family_id, now - REFRESH_GRACE_MS);
        return tokens;
      }
      // Used already, or by a request that committed while this one waited: read what it left.
      const current = row.used_at === null ? await refreshTokensRepo.findById(tx, row.id) : row;
      const again = current && (await graceAnswer(ctx, tx, current, now));
      if (again) return again;
      await refreshTokensRepo.revokeFamily(tx, row.family_id, now);
      return 'reused' as const;
    })
    .then((result) => {
      // The revocation must be committed before refusing, so it happens outside the transaction's throw.
      if (result === 'reused') throw unauthorized(messages.refreshReused, 'refresh_reused');
      if (result === 'revoked') throw unauthorized(messages.invalidRefreshToken, 'invalid_refresh_token');
      return result;
    });
}

/** Ends the sign-in a refresh token belongs to (its sessions stop working too). */
export async function signOut(ctx: AppContext, refreshToken: string): Promise<void> {
  const row = await refreshTokensRepo.findByHash(ctx.db, hashToken(refreshToken));
  if (row) await refreshTokensRepo.revokeFamily(ctx.db, row.family_id, ctx.now());
}
