// Bundler-only imports (`?url`) live here so lib/avatar.ts stays runnable under Node.
import avatar0 from '../../assets/avatars/avatar-0.svg?url';
import avatar1 from '../../assets/avatars/avatar-1.svg?url';
import avatar2 from '../../assets/avatars/avatar-2.svg?url';
import avatar3 from '../../assets/avatars/avatar-3.svg?url';
import avatar4 from '../../assets/avatars/avatar-4.svg?url';

/** URLs of the bundled default avatars, one per AVATAR_FALLBACK_COUNT index. */
export const defaultAvatarUrls: readonly string[] = [avatar0, avatar1, avatar2, avatar3, avatar4];
