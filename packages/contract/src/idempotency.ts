/**
 * Idempotency keys: the web client sends one per logical mutating action (the same across its retries),
 * and the api answers a repeat with the stored answer instead of acting twice.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Set on an answer that is a stored one, replayed for a repeated key. */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';

/** Longest accepted key; the web client's keys are 32 characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

/** Error codes of the idempotency checks; the client retries `idempotencyInFlight` like a 5xx. */
export const idempotencyCodes = {
  invalidKey: 'idempotency_key_invalid',
  keyReused: 'idempotency_key_reused',
  inFlight: 'idempotency_in_flight',
  answerUnavailable: 'idempotency_answer_unavailable',
} as const;

/** What the api says for each refusal. */
export const idempotencyMessages = {
  invalidKey: `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters.`,
  keyReused: `This ${IDEMPOTENCY_KEY_HEADER} was already used for a different request; send a new key for a new action.`,
  inFlight: `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; try again in a moment.`,
  answerUnavailable:
    'This request was already carried out, but its answer was too large to keep; reload to see the result.',
} as const;
