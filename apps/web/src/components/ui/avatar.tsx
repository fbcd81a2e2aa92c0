import { useState } from 'react';
import { type AvatarUser, avatarUrl, defaultAvatarUrl } from '../../lib/avatar.ts';
import { defaultAvatarUrls } from './default-avatars.ts';

export interface AvatarProps {
  user: AvatarUser & { username?: string };
  /** Pixel size of the square image. */
  size?: number;
  className?: string;
}

/** A round user avatar: the Discord one, falling back to the default image if unset or it fails to load. */
export function Avatar({ user, size = 40, className = '' }: AvatarProps) {
  const src = avatarUrl(user, defaultAvatarUrls);
  const fallback = defaultAvatarUrl(user.discriminator, defaultAvatarUrls);
  // Remember which URL failed, so a new avatar hash gets its own chance to load.
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <img
      src={failed === src ? fallback : src}
      onError={() => setFailed(src)}
      alt={user.username ? `${user.username}'s avatar` : 'Avatar'}
      width={size}
      height={size}
      className={`shrink-0 rounded-full bg-surface-raised object-cover ${className}`}
    />
  );
}
