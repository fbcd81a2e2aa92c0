import { z } from 'zod';

/** Reward types of a redeem code (panel spec, section 9). ServerTime amounts are days. */
export const redeemCodeTypes = ['Slot', 'ServerTime'] as const;
export type RedeemCodeType = (typeof redeemCodeTypes)[number];

/** A code's status as one user sees it (panel spec, section 4); only 'available' can be redeemed. */
export const redeemStatuses = ['available', 'claimed', 'out_of_stock', 'expired'] as const;
export type RedeemStatus = (typeof redeemStatuses)[number];

/** Longest code a caller may send: longer than any code the panel creates, short enough to bound the lookup. */
export const REDEEM_CODE_MAX = 64;
/**
 * Largest reward of one code: 3650 days (ten years) of server time, or as many slots. Far past any real
 * reward, and small enough that adding it to an expiry stays a real date.
 */
export const REDEEM_AMOUNT_MAX = 3650;
/** Largest stock of one code (the column is a 32-bit integer on PostgreSQL). */
export const REDEEM_STOCK_MAX = 1_000_000;
/** The public list shows at most this many codes, newest first. */
export const PUBLIC_CODES_LIMIT = 100;
/** Redeem attempts per user per minute: guessing private codes must be slow. */
export const REDEEM_RATE_LIMIT = { max: 10, windowMs: 60_000 } as const;

/** Every text of the Redeem page and its calls. */
export const redeemMessages = {
  title: 'Redeem Code',
  codeRequired: 'The code is required.',
  codeTooLong: `A code has at most ${REDEEM_CODE_MAX} characters.`,
  codeControl: 'A code cannot contain control characters.',
  fetchFailed: 'Could not fetch public codes.',
  redeemFailed: 'Failed to redeem code.',
  notFound: 'This code does not exist. Check the spelling and try again.',
  expired: 'This code has expired.',
  outOfStock: 'This code has already been fully claimed.',
  alreadyClaimed: 'You have already redeemed this code.',
  banned: 'Your account is banned and cannot redeem codes.',
  success: (reward: string) => `Code redeemed successfully! You received ${reward}.`,
  // A collaborator's dashboard shows the owner's time: say where theirs went.
  successOwnAccount: (reward: string) =>
    `Code redeemed successfully! ${reward} was added to your own account, not to the server you collaborate on.`,
  noExpiry: 'No expiry',
  noPublicCodes: 'There are no public codes right now.',
  noHistory: 'No codes redeemed yet.',
  // Creating codes (CLI now, admin panel later).
  amountInvalid: `Amount must be a whole number from 1 to ${REDEEM_AMOUNT_MAX}.`,
  stockInvalid: `Stock must be a whole number from 1 to ${REDEEM_STOCK_MAX.toLocaleString('en-GB')}.`,
  dateInvalid: 'The expiry date must be a real date written YYYY-MM-DD.',
  datePast: 'The expiry date cannot be in the past.',
  codeInvalid: 'A code has 3 to 32 letters, digits, underscores or hyphens.',
  suffixInvalid: 'A suffix has 1 to 12 letters or digits.',
  duplicate: 'A code with this text already exists.',
  codeMissing: 'No such code.',
  typeInvalid: 'Type must be Slot or ServerTime.',
} as const;

/** How a status reads on the page. */
export const redeemStatusLabels: Record<RedeemStatus, string> = {
  available: 'Available',
  claimed: 'Claimed',
  out_of_stock: 'Out of Stock',
  expired: 'Expired',
};

/** Labels of the Redeem page and of the profile's redemption history. */
export const redeemLabels = {
  intro: 'Redeem a code for server slots or server time. Available slots:',
  formHeading: 'Redeem a Code',
  codeLabel: 'Code',
  codePlaceholder: 'e.g. K7QH-2MZP-X9TC',
  codeHint: 'Codes are not case-sensitive.',
  redeem: 'Redeem',
  redeemCode: (code: string) => `Redeem ${code}`,
  publicCodes: 'Public Codes',
  claimed: (claimed: number, total: number) => `${claimed}/${total} claimed`,
  // A code lasts to the end of its day in UTC: say so, or a user west of UTC expects it to last longer.
  expires: (day: string) => `Expires ${day} (UTC)`,
  redemptionHistory: 'Redemption History',
} as const;

/** A control character: no code holds one, and PostgreSQL cannot even compare a text holding NUL. */
const CONTROL = /\p{Cc}/u;

/** Body of POST /users/{id}/redeem: the code, trimmed. */
export const redeemRequestSchema = z.object({
  code: z
    .string({ error: redeemMessages.codeRequired })
    .trim()
    .min(1, redeemMessages.codeRequired)
    .max(REDEEM_CODE_MAX, redeemMessages.codeTooLong)
    .refine((code) => !CONTROL.test(code), redeemMessages.codeControl),
});
export type RedeemRequest = z.infer<typeof redeemRequestSchema>;

/** Answer of POST /users/{id}/redeem. */
export const redeemResponseSchema = z.object({ message: z.string(), reward: z.string() });
export type RedeemResponse = z.infer<typeof redeemResponseSchema>;

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day 'YYYY-MM-DD' that exists (no 2026-02-30). */
export function isValidDay(day: string): boolean {
  if (!isoDay.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** One entry of GET /users/{id}/public-redeem-codes. */
export const publicRedeemCodeSchema = z.object({
  code: z.string(),
  reward: z.string(),
  status: z.enum(redeemStatuses),
  stock: z.object({ claimed: z.number().int().nonnegative(), total: z.number().int().positive() }),
  /** The last day the code can be used ('YYYY-MM-DD', UTC), or null when it never expires. */
  expiryDate: z.string().regex(isoDay).nullable(),
});
export type PublicRedeemCode = z.infer<typeof publicRedeemCodeSchema>;
export const publicRedeemCodeListSchema = z.array(publicRedeemCodeSchema);

/** Fields of a new code (admin document, section 3); the admin panel and the CLI share them. */
export const createRedeemCodeSchema = z
  .object({
    type: z.enum(redeemCodeTypes, { error: redeemMessages.typeInvalid }),
    amount: z
      .number({ error: redeemMessages.amountInvalid })
      .int(redeemMessages.amountInvalid)
      .min(1, redeemMessages.amountInvalid)
      .max(REDEEM_AMOUNT_MAX, redeemMessages.amountInvalid),
    stock: z
      .number({ error: redeemMessages.stockInvalid })
      .int(redeemMessages.stockInvalid)
      .min(1, redeemMessages.stockInvalid)
      .max(REDEEM_STOCK_MAX, redeemMessages.stockInvalid),
    customSuffix: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{1,12}$/, redeemMessages.suffixInvalid)
      .optional(),
    /** A code chosen by hand instead of a random one. */
    code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{3,32}$/, redeemMessages.codeInvalid)
      .optional(),
    expiryDate: z.string().refine(isValidDay, redeemMessages.dateInvalid).nullable().optional(),
    isPublic: z.boolean(),
  })
  .strict();
export type CreateRedeemCode = z.infer<typeof createRedeemCodeSchema>;

/** The key a code is stored and matched under: case and surrounding spaces do not count. */
export const redeemCodeKey = (code: string) => code.trim().toUpperCase();

/** The reward a code gives, as the page and the history show it: '1 Slot', '3 Slots', '7 Days Server Time'. */
export function rewardText(type: RedeemCodeType, amount: number): string {
  if (type === 'Slot') return `${amount} ${amount === 1 ? 'Slot' : 'Slots'}`;
  return `${amount} ${amount === 1 ? 'Day' : 'Days'} Server Time`;
}

const DAY_MS = 24 * 3600 * 1000;

/** The last instant (epoch ms) a code that expires on `day` ('YYYY-MM-DD', UTC) can be used: the end of that day. */
export const expiryDayEnd = (day: string) => Date.parse(`${day}T00:00:00Z`) + DAY_MS - 1;

/**
 * True when a code expiring on `day` could no longer be used at `now` (its day has ended): such a code is refused
 * at creation (redeemMessages.datePast). `now` is the caller's clock, so the schema itself has none.
 */
export const expiryDayPassed = (day: string, now: number) => now > expiryDayEnd(day);

/** The day ('YYYY-MM-DD', UTC) whose end is `endMs`. */
export const expiryDayOf = (endMs: number) => new Date(endMs).toISOString().slice(0, 10);

/** What the status decision needs about one code and one user. */
export interface RedeemStatusInput {
  claimedByUser: boolean;
  claimed: number;
  stock: number;
  /** End of the expiry day (epoch ms), or null. */
  expiresAt: number | null;
}

/**
 * A code's status as one user sees it: their own claim first, then expiry (past the end of the expiry
 * day), then stock; otherwise available.
 */
export function redeemStatus(code: RedeemStatusInput, now: number): RedeemStatus {
  if (code.claimedByUser) return 'claimed';
  if (code.expiresAt !== null && now > code.expiresAt) return 'expired';
  if (code.claimed >= code.stock) return 'out_of_stock';
  return 'available';
}
