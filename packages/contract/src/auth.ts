import { z } from 'zod';

/** The identity Discord's GET /users/@me answers with (the fields we use). */
export const discordUserSchema = z.object({
  id: z.string().min(1),
  username: z.string(),
  discriminator: z.string().default('0'),
  avatar: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
});
export type DiscordUser = z.infer<typeof discordUserSchema>;

/** The user record cached by the browser after sign-in. */
export const sessionUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  discriminator: z.string(),
  avatar: z.string().nullable(),
  email: z.string().nullable(),
  growId: z.string().nullable(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const loginRequestSchema = z.object({
  accessToken: z
    .string()
    .min(1, 'accessToken is required.')
    .max(512, 'accessToken must be at most 512 characters.')
    // It travels in an Authorization header: a control or non-ASCII character could never be a real token.
    .regex(/^[\x21-\x7e]+$/, 'accessToken must be printable ASCII characters without spaces.'),
});
export const loginResponseSchema = z.object({
  sessionToken: z.string(),
  refreshToken: z.string(),
  user: sessionUserSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const refreshRequestSchema = z.object({
  refreshToken: z.string().min(1, 'refreshToken is required.').max(512, 'refreshToken must be at most 512 characters.'),
});
/** The spec answers {sessionToken}; we rotate, so the new refresh token comes along. */
export const refreshResponseSchema = z.object({
  sessionToken: z.string(),
  refreshToken: z.string(),
});
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

/** Where the browser sends people to sign in (Discord, or the development stand-in). */
export const authConfigSchema = z.object({
  authorizeUrl: z.string(),
  clientId: z.string(),
  scopes: z.array(z.string()),
  devProvider: z.boolean(),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

/** Every error answer of the api. */
export const errorBodySchema = z.object({
  error: z.string(),
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
