import { randomUUID } from 'node:crypto';
import { type LoginResponse, messages, REFRESH_TOKEN_TTL_SECONDS, type RefreshResponse } from '@canopy/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/db.ts';
import { unauthorized } from '../errors.ts';
import { type UserRow, usersRepo } from '../users/users.repo.ts';
import { fetchDiscordUser } from './discord.ts';
import { refreshTokensRepo } from './refresh-tokens.repo.ts';
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

/** Rotates a refresh token; presenting one that was already used revokes its whole family. */
export async function refreshSession(ctx: AppContext, refreshToken: string): Promise<RefreshResponse> {
  const now = ctx.now();
  return ctx.db
    .transaction(async (tx) => {
      const row = await refreshTokensRepo.findByHash(tx, hashToken(refreshToken));
      if (!row || row.revoked_at !== null || row.expires_at <= now)
        throw unauthorized(messages.invalidRefreshToken, 'invalid_refresh_token');
      if (row.used_at !== null || !(await refreshTokensRepo.markUsed(tx, row.id, now))) {
        await refreshTokensRepo.revokeFamily(tx, row.family_id, now);
        return 'reused' as const;
      }
      return issueTokens(ctx, tx, row.user_id, row.family_id);
    })
    .then((result) => {
      // The revocation must be committed before refusing, so it happens outside the transaction's throw.
      if (result === 'reused') throw unauthorized(messages.refreshReused, 'refresh_reused');
      return result;
    });
}

/** Ends the sign-in a refresh token belongs to (its sessions stop working too). */
export async function signOut(ctx: AppContext, refreshToken: string): Promise<void> {
  const row = await refreshTokensRepo.findByHash(ctx.db, hashToken(refreshToken));
  if (row) await refreshTokensRepo.revokeFamily(ctx.db, row.family_id, ctx.now());
}
