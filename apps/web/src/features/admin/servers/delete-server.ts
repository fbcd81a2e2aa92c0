import { adminPanelMessages } from '@canopy/contract';

/** The two calls the delete dialog makes, injected so that the order can be tested without a server. */
export interface DeleteServerCalls {
  deleteServer: (name: string) => Promise<{ message: string }>;
  banName: (name: string, reason: string) => Promise<{ message: string }>;
}

/** What the dialog sends: the server, and the ban reason when 'Also ban the server name' is ticked. */
export interface DeleteServerRequest {
  name: string;
  ban: boolean;
  reason: string;
}

/** The toasts one run produced, in order, and whether the server is gone. */
export interface DeleteServerOutcome {
  deleted: boolean;
  toasts: { type: 'success' | 'error'; text: string }[];
}

/** The inline error of the dialog's form, or null when it may be sent (admin document, section 5). */
export function deleteFormError(request: Pick<DeleteServerRequest, 'ban' | 'reason'>): string | null {
  return request.ban && request.reason.trim() === '' ? adminPanelMessages.serverNameBanReasonRequired : null;
}

const errorText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

/**
 * Deletes the server, then bans its name when asked (admin document, section 4): the ban is posted only after
 * the deletion succeeded, so a failed deletion never leaves a banned name behind a living server. A failed ban
 * after a successful deletion still counts as deleted (the dialog closes; the error toast says what is missing).
 */
export async function deleteServerWithBan(
  request: DeleteServerRequest,
  calls: DeleteServerCalls,
): Promise<DeleteServerOutcome> {
  if (deleteFormError(request)) return { deleted: false, toasts: [] };
  const toasts: DeleteServerOutcome['toasts'] = [];
  try {
    const answer = await calls.deleteServer(request.name);
    toasts.push({ type: 'success', text: answer.message });
  } catch (error) {
    toasts.push({ type: 'error', text: errorText(error, adminPanelMessages.actionFailed) });
    return { deleted: false, toasts };
  }
  if (request.ban) {
    try {
      const answer = await calls.banName(request.name, request.reason.trim());
      toasts.push({ type: 'success', text: answer.message });
    } catch (error) {
      toasts.push({ type: 'error', text: errorText(error, adminPanelMessages.banServerName) });
    }
  }
  return { deleted: true, toasts };
}
