import { adminBanMessages, type BulkAction, bulkActionSchema } from '@canopy/contract';
import type { FormResult } from '../user-forms.ts';

/** What the bulk dialog's fields hold (strings, as the inputs give them). */
export interface BulkForm {
  action: BulkAction;
  reason: string;
  duration: string;
  amount: string;
}

/** The POST /admin/users/bulk-action body: banInfo for ban, nothing for unban, amount for the rest. */
export interface BulkBody {
  userIds: string[];
  action: BulkAction;
  banInfo?: { reason: string; duration: string };
  amount?: number;
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
export function buildBulkBody(userIds: readonly string[], form: BulkForm): FormResult<BulkBody> {
  const fields = bulkFieldsOf(form.action);
  const body: BulkBody = { userIds: [...userIds], action: form.action };
  if (fields === 'ban') body.banInfo = { reason: form.reason.trim(), duration: form.duration.trim() };
  if (fields === 'days' || fields === 'slots') {
    const text = form.amount.trim();
    if (!/^\d+$/.test(text)) return { ok: false, error: adminBanMessages.amountInvalid };
    body.amount = Number(text);
  }
  const parsed = bulkActionSchema.safeParse(body);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? adminBanMessages.amountInvalid };
  return { ok: true, body };
}

/**
 * The error toasts of a partly failed bulk action: one per item, `${name}: ${error}` with the user's GrowID or
 * username, the Discord ID only for a user the api does not know.
 */
export function bulkErrorTexts(errors: readonly { userId: string; name?: string | null; error: string }[]): string[] {
  return errors.map((e) => {
    const who = e.name || e.userId;
    return who ? `${who}: ${e.error}` : e.error;
  });
}
