import {
  type AdminCreateCode,
  adminCreateCodeSchema,
  expiryDayPassed,
  isValidDay,
  type RedeemCodeType,
  redeemMessages,
} from '@canopy/contract';

/** The create-code form as the inputs hold it: the optional fields are '' when left empty. */
export interface NewCodeForm {
  type: RedeemCodeType;
  amount: number;
  stock: number;
  customSuffix: string;
  expiryDate: string;
  isPublic: boolean;
}

/** A fresh form: amount 1 and stock 1 (admin document, section 9), private, no suffix and no expiry. */
export const newCodeDefaults: NewCodeForm = {
  type: 'Slot',
  amount: 1,
  stock: 1,
  customSuffix: '',
  expiryDate: '',
  isPublic: false,
};

/**
 * The POST body a valid form sends (the contract drops the empty optional fields), or the first error per field.
 * An expiry day that has ended at `now` is refused as the api would (expiryDayPassed).
 */
export function newCodeRequest(
  form: NewCodeForm,
  now: number,
): { ok: true; body: AdminCreateCode } | { ok: false; errors: Partial<Record<keyof NewCodeForm, string>> } {
  const parsed = adminCreateCodeSchema.safeParse(form);
  const past = isValidDay(form.expiryDate) && expiryDayPassed(form.expiryDate, now);
  if (parsed.success && !past) return { ok: true, body: parsed.data };
  const errors: Partial<Record<keyof NewCodeForm, string>> = past ? { expiryDate: redeemMessages.datePast } : {};
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = issue.path[0] as keyof NewCodeForm;
    errors[field] ??= issue.message;
  }
  // An emptied number input reads NaN, which zod words as a type error: say what the field needs instead.
  if (errors.amount) errors.amount = redeemMessages.amountInvalid;
  if (errors.stock) errors.stock = redeemMessages.stockInvalid;
  return { ok: false, errors };
}
