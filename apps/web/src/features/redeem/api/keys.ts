/** Query key of the public codes as one user sees them. */
export const publicCodesKey = (userId: string) => ['public-redeem-codes', userId] as const;

/** Base path of a user's redeem calls. */
export const redeemBase = (userId: string) => `/users/${encodeURIComponent(userId)}`;
