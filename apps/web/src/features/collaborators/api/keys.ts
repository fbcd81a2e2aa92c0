/** The path of a user's collaborators resource. */
export const collaboratorsPath = (userId: string) => `/users/${encodeURIComponent(userId)}/server/collaborators`;

/** Query key prefix of everything collaborator-related; invalidating it refreshes the list and the checks. */
export const collaboratorsKey = (userId: string) => ['collaborators', userId] as const;
