/** Query key of everything about the user's worlds (the list and each world). */
export const worldsKey = (userId: string) => ['worlds', userId] as const;
/** Query key of one world's detail. */
export const worldKey = (userId: string, name: string) => ['worlds', userId, 'detail', name] as const;

/** The path of the worlds of the server the user owns or collaborates on. */
export const worldsPath = (userId: string) => `/users/${encodeURIComponent(userId)}/server/worlds`;
/** The path of one world. */
export const worldPath = (userId: string, name: string) => `${worldsPath(userId)}/${encodeURIComponent(name)}`;
