import { z } from 'zod';
import { GROWID_MAX, GROWID_MIN } from './constants.ts';
import { messages } from './messages.ts';
import { settingsSchema } from './settings.ts';

const growIdPattern = new RegExp(`^[A-Za-z0-9]{${GROWID_MIN},${GROWID_MAX}}$`);

/** A GrowID: 3 to 20 letters or digits. */
export const growIdSchema = z.string().regex(growIdPattern, messages.growIdInvalid);

/** Body of POST /register. */
export const registerRequestSchema = z.object({
  discordId: z.string().min(1, 'discordId is required.').max(32),
  discordUsername: z.string().min(1, 'discordUsername is required.').max(100),
  growId: growIdSchema,
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const registerResponseSchema = z.object({
  message: z.string(),
  growId: z.string(),
});

export const banInfoSchema = z.object({
  reason: z.string(),
  bannedBy: z.string(),
  bannedAt: z.string(),
  /** ISO date, or null for a permanent ban. */
  expires: z.string().nullable(),
});
export type BanInfo = z.infer<typeof banInfoSchema>;

export const redeemedCodeSchema = z.object({
  code: z.string(),
  reward: z.string(),
  redeemedAt: z.string(),
});

/**
 * Our addition: the server time as exact instants, so the panel counts down to the same instant the
 * scheduler acts on (estimatedExpiry's 'Grace period ends dd/mm/yyyy' has no hour). For a collaborator
 * these are the server owner's figures.
 */
export const serverTimeSchema = z.object({
  /** The server never runs out of time. */
  permanent: z.boolean(),
  /** ISO instant the server time runs out; null when permanent or not started yet. */
  expiresAt: z.string().nullable(),
  /** ISO instant the grace period ends and the server is deleted; null when expiresAt is, and without a server. */
  graceEndsAt: z.string().nullable(),
  /** Server time (ms) waiting for the first server: it starts to run when the server is created. */
  pendingMs: z.number().int().nonnegative(),
});
export type ServerTime = z.infer<typeof serverTimeSchema>;

/** Who deleted a user's server: they did, an admin did, or the scheduler did when the grace period ended. */
export const serverDeletedBySchema = z.enum(['owner', 'admin', 'expiry']);
export type ServerDeletedBy = z.infer<typeof serverDeletedBySchema>;

/** Our addition: the user's last deleted server (its name, when as ISO, and who deleted it). */
export const serverDeletionSchema = z.object({ name: z.string(), at: z.string(), by: serverDeletedBySchema });
export type ServerDeletion = z.infer<typeof serverDeletionSchema>;

/** The user record of the profile call (panel document, section 3). */
export const profileSchema = z.object({
  id: z.string(),
  username: z.string(),
  discriminator: z.string(),
  avatar: z.string().nullable(),
  email: z.string().nullable(),
  growId: z.string().nullable(),
  accountType: z.enum(['Free', 'Paid']),
  /** Our addition: when the Paid plan ends (ISO), null while Free or for a plan without an end. */
  paidUntil: z.string().nullable(),
  serverOwned: z.string(),
  registeredAt: z.string().nullable(),
  availableSlot: z.number().int(),
  credit: z.number(),
  estimatedExpiry: z.string(),
  storageUsedMB: z.number(),
  storageLimitMB: z.number(),
  isBanned: z.boolean(),
  banInfo: banInfoSchema.nullable(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
  /** Our addition: the admin permission strings this user holds (every one for a super admin, none for a user). */
  adminPermissions: z.array(z.string()),
  isCollaborator: z.boolean(),
  collaboratorPermissions: z.array(z.string()),
  redeemedCodes: z.array(redeemedCodeSchema),
  /** Our addition: see serverTimeSchema. */
  serverTime: serverTimeSchema,
  /** Our addition: true while the crash-loop guard keeps the server offline (it crashed again within a minute). */
  serverCrashLoop: z.boolean(),
  /**
   * The server's live config, read by the Configuration page (`server.config.autofarmDelay`); null
   * without a server.
   */
  server: z.object({ config: z.object({ autofarmDelay: z.number() }) }).nullable(),
  /**
   * Our addition: the server this user owned last, once deleted, so the dashboard can say so however it went
   * (also while they were away); null while they have a server or never had one deleted.
   */
  lastServerDeletion: serverDeletionSchema.nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileResponseSchema = z.object({
  profile: profileSchema,
  settings: settingsSchema,
});
export type ProfileResponse = z.infer<typeof profileResponseSchema>;
