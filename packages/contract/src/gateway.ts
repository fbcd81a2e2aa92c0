import { z } from 'zod';
import { GROWID_MAX, GROWID_MIN, SERVER_NAME_MAX, SERVER_NAME_MIN } from './constants.ts';

/** Longest password a GrowID may have (the engine's player record limit). */
export const GAME_PASSWORD_MAX = 128;

/** What the gateway's login page tells a player (docs/decisions/0026-playable-servers.md). */
export const gatewayMessages = {
  loggedIn: (growId: string, server: string) => `Signed in as ${growId} on ${server}.`,
  created: (growId: string, server: string) => `GrowID ${growId} created on ${server}.`,
  serverNameInvalid: `Type the server's name (${SERVER_NAME_MIN}-${SERVER_NAME_MAX} letters, digits, _ or -).`,
  unknownServer: (server: string) => `There is no server named ${server}.`,
  serverOffline: (server: string) => `${server} is offline right now. Try again once its owner starts it.`,
  maintenance: 'Canopy is under maintenance. Please try again later.',
  ownerBanned: (server: string) => `${server} is closed: its owner is banned from Canopy.`,
  wrongPassword: 'Wrong GrowID or password.',
  growIdBanned: (growId: string, server: string) => `${growId} is banned on ${server}.`,
  nameTaken: (growId: string, server: string) => `The GrowID ${growId} is already taken on ${server}.`,
  growIdInvalid: `A GrowID is ${GROWID_MIN}-${GROWID_MAX} letters or digits.`,
  passwordInvalid: `Type a password of at most ${GAME_PASSWORD_MAX} characters.`,
  tooManyAttempts: 'Too many sign-in attempts. Please wait a minute and try again.',
  serverNoAnswer: (server: string) => `${server} did not answer. Please try again.`,
  accountValidated: 'Account Validated.',
  savedSignInInvalid: 'Your saved sign-in is not valid here. Please sign in again.',
  savedSignInExpired: 'Your saved sign-in has expired. Please sign in again.',
  growIdGone: (growId: string, server: string) => `${growId} no longer exists on ${server}. Please sign in again.`,
} as const;

/** Longest `clientData` a checktoken call may carry (the client's login fields; only bounded, not read). */
export const GATEWAY_CLIENT_DATA_MAX = 8192;

/**
 * Body of POST /player/growid/checktoken, a returning player's saved sign-in (ADR 0027): the last game token
 * the client was given, and the client's own login fields.
 */
export const gatewayCheckTokenRequestSchema = z.object({
  // A coarse bound (game-token.ts, which reads it, holds the exact one and node:crypto, kept out of the web app).
  refreshToken: z.string().trim().min(1).max(1024),
  clientData: z.string().max(GATEWAY_CLIENT_DATA_MAX).optional(),
});
export type GatewayCheckTokenRequest = z.infer<typeof gatewayCheckTokenRequestSchema>;

/** Body of POST /player/growid/login/validate (a form post or JSON). `create` = "1" creates the GrowID. */
export const gatewayLoginRequestSchema = z.object({
  server: z
    .string()
    .trim()
    .min(SERVER_NAME_MIN)
    .max(SERVER_NAME_MAX)
    .regex(/^[A-Za-z0-9_-]+$/),
  growId: z
    .string()
    .trim()
    .regex(new RegExp(`^[A-Za-z0-9]{${GROWID_MIN},${GROWID_MAX}}$`)),
  password: z.string().min(1).max(GAME_PASSWORD_MAX),
  create: z
    .union([z.boolean(), z.enum(['1', '0', 'on', 'true', 'false', ''])])
    .optional()
    .transform((v) => v === true || v === '1' || v === 'on' || v === 'true'),
});
export type GatewayLoginRequest = z.infer<typeof gatewayLoginRequestSchema>;

/**
 * The answer the game client's web view expects from a sign-in (validate, checktoken). A refusal is not JSON: it
 * answers the login page again with the error shown (ADR 0027).
 */
export const gatewayLoginResponseSchema = z.object({
  status: z.literal('success'),
  message: z.string(),
  token: z.string(),
  url: z.literal(''),
  accountType: z.literal('growtopia'),
});
export type GatewayLoginResponse = z.infer<typeof gatewayLoginResponseSchema>;
