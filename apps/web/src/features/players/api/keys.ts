/** Query key of everything about the user's players (the list and each player). */
export const playersKey = (userId: string) => ['players', userId] as const;
/** Query key of one player's record. */
export const playerKey = (userId: string, name: string) => ['players', userId, 'detail', name] as const;

/** The path of the players of the server the user owns or collaborates on. */
export const playersPath = (userId: string) => `/users/${encodeURIComponent(userId)}/server/players`;
/** The path of one player. */
export const playerPath = (userId: string, name: string) => `${playersPath(userId)}/${encodeURIComponent(name)}`;
