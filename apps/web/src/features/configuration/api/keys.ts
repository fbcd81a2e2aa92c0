/** The path of the caller's server resource. */
export const configServerPath = (userId: string) => `/users/${encodeURIComponent(userId)}/server`;

/** Query keys of the Configuration page; invalidating `configurationKey` refreshes all of them. */
export const configurationKey = (userId: string) => ['configuration', userId] as const;
export const creatorListKey = (userId: string) => [...configurationKey(userId), 'creator-list'] as const;
export const serverConfigKey = (userId: string) => [...configurationKey(userId), 'server-config'] as const;
export const newbieKitKey = (userId: string) => [...configurationKey(userId), 'newbie-kit'] as const;
