import { type AdminCreateCode, adminCreateCodeSchema, type RedeemCodeType, redeemMessages } from '@canopy/contract';

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

/** The POST body a valid form sends (the contract drops the empty optional fields), or the first error per field. */
export function newCodeRequest(
  form: NewCodeForm,
): { ok: true; body: AdminCreateCode } | { ok: false; errors: Partial<Record<keyof NewCodeForm, string>> } {
  const parsed = adminCreateCodeSchema.safeParse(form);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: Partial<Record<keyof NewCodeForm, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof NewCodeForm;
    errors[field] ??= issue.message;
  }
  // An emptied number input reads NaN, which zod words as a type error: say what the field needs instead.
  if (errors.amount) errors.amount = redeemMessages.amountInvalid;
  if (errors.stock) errors.stock = redeemMessages.stockInvalid;
  return { ok: false, errors };
}
