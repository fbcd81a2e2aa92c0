import {
  type BanUserRequest,
  banUserSchema,
  creditAdjustSchema,
  expiryChangeSchema,
  setPaidSchema,
  setStorageSchema,
  slotChangeSchema,
  type UserChange,
  type UserChangeAction,
} from '@canopy/contract';

/** A form's outcome: the body to send, or the message to show under the form instead of calling. */
export type FormResult<T> = { ok: true; body: T } | { ok: false; error: string };

function result<T>(parsed: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } }) {
  return parsed.success
    ? ({ ok: true, body: parsed.data } as const)
    : ({ ok: false, error: parsed.error.issues[0]?.message ?? '' } as const);
}

/** Server time (days) or slots: a non-negative whole number (admin document, section 5). */
export function parseUserChange(kind: 'expiry' | 'slot', action: UserChangeAction, amount: string) {
  const schema = kind === 'expiry' ? expiryChangeSchema : slotChangeSchema;
  // An empty field is not 0: it is a missing number, refused with the same text.
  return result<UserChange>(schema.safeParse({ action, amount: amount.trim() === '' ? undefined : amount }));
}

/** Storage limit in MB: a positive whole number. */
export function parseStorage(limitMB: string) {
  return result<{ limitMB: number }>(setStorageSchema.safeParse({ limitMB: limitMB.trim() || undefined }));
}

/** Set Paid: a duration is required and must read as one (the api's own schema, so the texts match). */
export function parsePaid(duration: string) {
  return result<{ duration: string }>(setPaidSchema.safeParse({ duration }));
}

/**
 * Ban: reason and duration, both required (the spec's text when one is empty); a filled but malformed duration
 * gets the duration syntax text, as the api answers.
 */
export function parseBan(reason: string, duration: string) {
  return result<BanUserRequest>(banUserSchema.safeParse({ reason, duration }));
}

/** Credit: a signed whole number other than 0, with an optional reason. */
export function parseCredit(amount: string, reason: string) {
  return result<{ amount: number; reason?: string }>(
    creditAdjustSchema.safeParse({ amount: amount.trim() || undefined, reason: reason.trim() || undefined }),
  );
}
