import { type PublicRedeemCode, type RedeemStatus, redeemMessages } from '@canopy/contract';

/**
 * A code's last day in en-GB form ('31/12/2026'), or 'No expiry'. The day is a UTC calendar day: it is
 * rewritten, not converted through the browser's time zone (which could show the day before).
 */
export function formatExpiryDay(day: string | null): string {
  if (day === null) return redeemMessages.noExpiry;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

/** The list's order of statuses: what can be redeemed first, then what is done with (issue 21). */
const statusOrder: Record<RedeemStatus, number> = { available: 0, claimed: 1, out_of_stock: 2, expired: 3 };

/** The public codes in the list's order: available, claimed, out of stock, expired; the api's order within each. */
export function sortPublicCodes(codes: readonly PublicRedeemCode[]): PublicRedeemCode[] {
  // Array.prototype.sort is stable, so codes of one status keep the api's order.
  return [...codes].sort((a, b) => statusOrder[a.status] - statusOrder[b.status]);
}

/** Only available codes get a Redeem button (spec 2.8). */
export const canRedeem = (code: PublicRedeemCode) => code.status === 'available';

/** Pill colours of each status. */
export const statusStyles: Record<RedeemStatus, string> = {
  available: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/40',
  claimed: 'bg-sky-500/15 text-sky-300 ring-sky-500/40',
  out_of_stock: 'bg-amber-500/15 text-amber-300 ring-amber-500/40',
  expired: 'bg-slate-500/15 text-slate-300 ring-slate-500/40',
};

/**
 * One redeem at a time across the field and the list: a second Enter or click lands before React has
 * re-rendered the disabled button, so the guard is a flag set synchronously, not the mutation's state.
 */
export function oneAtATime() {
  let busy = false;
  return {
    /** True (and now busy) when nothing is running; false means: ignore this submit. */
    start(): boolean {
      if (busy) return false;
      busy = true;
      return true;
    },
    finish(): void {
      busy = false;
    },
  };
}
