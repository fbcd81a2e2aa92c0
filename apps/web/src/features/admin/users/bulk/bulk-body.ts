import {
  adminBanMessages,
  type BulkAction,
  type BulkActionRequest,
  type BulkActionResponse,
  bulkActionSchema,
} from '@canopy/contract';
import type { FormResult } from '../user-forms.ts';

/** What the bulk dialog's fields hold (strings, as the inputs give them). */
export interface BulkForm {
  action: BulkAction;
  reason: string;
  duration: string;
  amount: string;
}

/** Which extra fields an action needs: the ban's reason and duration, an amount, or none (unban). */
export function bulkFieldsOf(action: BulkAction): 'ban' | 'days' | 'slots' | 'none' {
  if (action === 'ban') return 'ban';
  if (action === 'unban') return 'none';
  return action.endsWith('Time') ? 'days' : 'slots';
}

/**
 * The body for the selected users, checked with the api's own schema (section 5: ban needs reason and duration,
 * the others a non-negative amount; time in days), or the first refusal's text.
 */
export function buildBulkBody(userIds: readonly string[], form: BulkForm): FormResult<BulkActionRequest> {
  // The schema reads only the fields the action needs, trims them and turns the amount's text into a number.
  const parsed = bulkActionSchema.safeParse({
    userIds: [...userIds],
    action: form.action,
    banInfo: { reason: form.reason, duration: form.duration },
    amount: form.amount,
  });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? adminBanMessages.amountInvalid };
  return { ok: true, body: parsed.data };
}

/**
 * The error toasts of a partly failed bulk action: one per item, `${name}: ${error}` with the user's GrowID or
 * username, the Discord ID only for a user the api does not know.
 */
export function bulkErrorTexts(errors: BulkActionResponse['errors']): string[] {
  return errors.map((e) => {
    const who = e.name || e.userId;
    return who ? `${who}: ${e.error}` : e.error;
  });
}
