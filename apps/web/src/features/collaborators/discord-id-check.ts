import { type CollaboratorValidation, discordIdSchema, serverPageMessages } from '@canopy/contract';
import { ApiError } from '../../lib/api-client.ts';

/** Wait after the last keystroke before the Discord ID is checked (spec section 9). */
export const DISCORD_ID_DEBOUNCE_MS = 500;

/** What to do with a settled input: nothing, refuse it here (no call), or ask the api. */
export type DiscordIdCheck =
  | { kind: 'idle' }
  | { kind: 'invalid'; message: string }
  | { kind: 'remote'; discordId: string };

/** Decides the check of a settled input: empty is idle, a malformed id is refused without a call. */
export function discordIdCheck(input: string): DiscordIdCheck {
  const discordId = input.trim();
  if (discordId === '') return { kind: 'idle' };
  const parsed = discordIdSchema.safeParse(discordId);
  if (!parsed.success) return { kind: 'invalid', message: parsed.error.issues[0]?.message ?? 'Invalid Discord ID.' };
  return { kind: 'remote', discordId };
}

/** The validation states of spec section 4. */
export type DiscordIdState =
  | { status: 'idle' }
  | { status: 'validating' }
  | { status: 'valid' | 'not_found' | 'conflict' | 'invalid_id'; message: string; user: CollaboratorValidation['user'] }
  | { status: 'error'; message: string };

export interface DiscordIdFacts {
  /** What is in the field now. */
  input: string;
  /** The input once typing has stopped for DISCORD_ID_DEBOUNCE_MS. */
  settled: string;
  /** The api's answer for the settled id, if there is one. */
  result: CollaboratorValidation | undefined;
  /** The failed check of the settled id, if it failed. */
  error: unknown;
}

/**
 * The state the field shows. Typing counts as validating (a previous 'valid' must not enable Add
 * for a different id); then the local format check, the api's failure, or its answer.
 */
export function discordIdState({ input, settled, result, error }: DiscordIdFacts): DiscordIdState {
  if (input.trim() === '') return { status: 'idle' };
  if (input.trim() !== settled.trim()) return { status: 'validating' };
  const check = discordIdCheck(settled);
  if (check.kind === 'idle') return { status: 'idle' };
  if (check.kind === 'invalid') return { status: 'invalid_id', message: check.message, user: null };
  if (error) return { status: 'error', message: validationErrorMessage(error) };
  if (!result) return { status: 'validating' };
  return { status: result.status, message: result.message, user: result.user };
}

/** The text of a failed check: the api's error, else the spec's fallbacks. */
export function validationErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return serverPageMessages.validationFailed;
  if (error.code === 'invalid_response') return serverPageMessages.validationUnknown;
  if (error.code === 'network') return serverPageMessages.validationFailed;
  return error.message || serverPageMessages.validationFailed;
}
