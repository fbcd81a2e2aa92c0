import type { UserRow } from '../../users/users.repo.ts';

/** How an admin appears in the activity log and as a code's creator: their GrowID, else their Discord name. */
export const adminName = (user: UserRow) => user.grow_id ?? user.username;

/** The activity log's actor fields for an admin. */
export const adminActor = (user: UserRow) => ({ actorType: 'Admin' as const, actorName: adminName(user) });
