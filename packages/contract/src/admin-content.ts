import { z } from 'zod';
import { adminCommonLabels } from './admin-labels.ts';
import { adminPageSchema } from './admin-paging.ts';
import { FEEDBACK_STATUSES, FEEDBACK_TYPES } from './feedback.ts';
import { createRedeemCodeSchema, expiryDayEnd, redeemCodeTypes } from './redeem.ts';

/** Texts of the Redeem Codes and Feedback tabs' calls (admin document, sections 5 and 8, and our own answers). */
export const adminContentMessages = {
  codeDeleted: (code: string) => `Code ${code} deleted.`,
  codeCreated: (code: string) => `Code ${code} created.`,
  codeCopied: (code: string) => `Code ${code} copied.`,
  statusInvalid: `Status must be one of: ${FEEDBACK_STATUSES.join(', ')}.`,
  statusUpdated: 'Status updated.',
  feedbackDeleted: 'Feedback deleted.',
  feedbackMissing: 'No such feedback.',
} as const;

/** Labels of the Redeem Codes and Feedback tabs (web). */
export const adminContentLabels = {
  searchCodes: 'Search codes',
  searchCodesPlaceholder: 'Search by code…',
  createCode: 'Create Code',
  create: 'Create',
  cancel: adminCommonLabels.cancel,
  delete: 'Delete',
  copy: 'Copy',
  copyCode: (code: string) => `Copy ${code}`,
  column: {
    code: 'Code',
    type: 'Type',
    amount: 'Amount',
    claimed: 'Claimed by / Stock',
    expiry: 'Expiry date',
    status: 'Status',
    actions: 'Actions',
  },
  createdBy: (who: string) => `Created by ${who}`,
  noCodes: 'No redeem codes.',
  noExpiry: 'Never',
  claimedOfStock: (claimed: number, stock: number) => `${claimed} / ${stock}`,
  typeLabel: 'Type',
  amountLabel: 'Amount',
  amountHint: { Slot: 'Slots per claim.', ServerTime: 'Days of server time per claim.' },
  stockLabel: 'Stock',
  stockHint: 'How many users can claim it.',
  suffixLabel: 'Custom suffix (optional)',
  suffixHint: 'Up to 12 letters or digits at the end of the code.',
  expiryLabel: 'Expiry date (optional)',
  expiryHint: 'Usable until the end of this day (UTC).',
  publicLabel: 'Public (listed on the Redeem page)',
  createdHeading: 'New code',
  done: 'Done',
  deleteTitle: 'Delete code',
  deleteConfirm: (code: string) => `Delete code ${code}? Users can no longer redeem it.`,
  noFeedback: 'No feedback yet.',
  submittedBy: 'From',
  noGrowId: 'no GrowID',
  statusLabel: 'Status',
  deleteFeedbackTitle: 'Delete feedback',
  deleteFeedbackConfirm: 'Delete this feedback? This cannot be undone.',
} as const;

/** How the admin list labels a code, decided in this order (admin document, section 4). */
export const redeemDisplayStatuses = ['Expired', 'Out of Stock', 'Public', 'Active'] as const;
export type RedeemDisplayStatus = (typeof redeemDisplayStatuses)[number];

/** What the display status needs about one code. */
export interface RedeemDisplayInput {
  /** The last day the code can be used ('YYYY-MM-DD', UTC), or null. */
  expiryDate: string | null;
  claimed: number;
  stock: number;
  isPublic: boolean;
}

/**
 * A code's status in the admin list: Expired once the end of its expiry day (UTC) has passed, then Out of
 * Stock when claims reached the stock, then Public, otherwise Active.
 */
export function redeemDisplayStatus(code: RedeemDisplayInput, now: number): RedeemDisplayStatus {
  if (code.expiryDate !== null && now > expiryDayEnd(code.expiryDate)) return 'Expired';
  if (code.claimed >= code.stock) return 'Out of Stock';
  if (code.isPublic) return 'Public';
  return 'Active';
}

/** An empty form field ('' or null) means "not given". */
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * Body of POST /admin/redeem-codes: the shared code fields (amount and stock at least 1) without a
 * hand-chosen code; an empty suffix or expiry date counts as none; isPublic defaults to false.
 */
export const adminCreateCodeSchema = createRedeemCodeSchema
  .omit({ code: true })
  .extend({
    customSuffix: z.preprocess(blankToUndefined, createRedeemCodeSchema.shape.customSuffix),
    expiryDate: z.preprocess(blankToUndefined, createRedeemCodeSchema.shape.expiryDate),
    isPublic: z.boolean().default(false),
  })
  .strict();
export type AdminCreateCode = z.infer<typeof adminCreateCodeSchema>;

/** Answer of POST /admin/redeem-codes. */
export const adminCreateCodeResponseSchema = z.object({ code: z.string() });

/** One row of GET /admin/redeem-codes (admin document, section 3). */
export const adminRedeemCodeSchema = z.object({
  code: z.string(),
  type: z.enum(redeemCodeTypes),
  amount: z.number().int(),
  stock: z.number().int(),
  claimed: z.number().int(),
  /** GrowIDs of the claimants (their Discord ids when they have none), oldest claim first. */
  claimedBy: z.array(z.string()),
  createdBy: z.string(),
  expiryDate: z.string().nullable(),
  isPublic: z.boolean(),
  displayStatus: z.enum(redeemDisplayStatuses),
});
export type AdminRedeemCode = z.infer<typeof adminRedeemCodeSchema>;
export const adminRedeemCodePageSchema = adminPageSchema(adminRedeemCodeSchema);

/** One row of GET /admin/feedback (admin document, section 3), newest first. */
export const adminFeedbackSchema = z.object({
  id: z.string(),
  type: z.enum(FEEDBACK_TYPES),
  submittedByUsername: z.string(),
  submittedByGrowId: z.string().nullable(),
  message: z.string(),
  status: z.enum(FEEDBACK_STATUSES),
  /** ISO 8601. */
  timestamp: z.string(),
});
export type AdminFeedback = z.infer<typeof adminFeedbackSchema>;
export const adminFeedbackPageSchema = adminPageSchema(adminFeedbackSchema);

/** Body of PUT /admin/feedback/{id}/status: any of the four statuses, from any other. */
export const feedbackStatusSchema = z.object({
  status: z.enum(FEEDBACK_STATUSES, { error: adminContentMessages.statusInvalid }),
});
