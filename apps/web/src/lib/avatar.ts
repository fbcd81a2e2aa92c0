import { AVATAR_FALLBACK_COUNT } from '@canopy/contract';

/** The user fields an avatar needs. */
export interface AvatarUser {
  id: string;
  avatar: string | null;
  discriminator: string;
}

/** Index of the default avatar: discriminator modulo AVATAR_FALLBACK_COUNT; 0 when not an integer. */
export function defaultAvatarIndex(discriminator: string): number {
  const n = Number(discriminator);
  if (!Number.isSafeInteger(n)) return 0;
  return ((n % AVATAR_FALLBACK_COUNT) + AVATAR_FALLBACK_COUNT) % AVATAR_FALLBACK_COUNT;
}

/** The user's Discord CDN avatar (64 px), or null when they have none. */
export function discordAvatarUrl(user: AvatarUser): string | null {
  if (!user.avatar) return null;
  return `https://cdn.discordapp.com/avatars/${encodeURIComponent(user.id)}/${encodeURIComponent(user.avatar)}.png?size=64`;
}

/**
 * Default avatar for a discriminator, picked from `defaults` (the bundled images, passed in so
 * this module stays free of bundler-only imports and runs under Node).
 */
export function defaultAvatarUrl(discriminator: string, defaults: readonly string[]): string {
  return defaults[defaultAvatarIndex(discriminator) % Math.max(defaults.length, 1)] ?? '';
}

/** The avatar to show: the Discord one when set, else the default picked by discriminator. */
export function avatarUrl(user: AvatarUser, defaults: readonly string[]): string {
  return discordAvatarUrl(user) ?? defaultAvatarUrl(user.discriminator, defaults);
}
