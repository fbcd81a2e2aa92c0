import { type CreditPack, creditPackMessages as m } from '@canopy/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Banner, Button, Card, SkeletonRows } from '../../../components/ui/index.ts';
import { useBuyCredits, useCreditOffer } from '../api/credit-offer.ts';

/**
 * A pack's price as the buyer's browser writes money. The price is in minor units, Stripe's count; Intl's
 * fraction digits match Stripe's for the usual currencies (ISK and a few others differ: Stripe shows the truth).
 */
export function formatPrice(pack: Pick<CreditPack, 'price' | 'currency'>): string {
  const format = new Intl.NumberFormat(undefined, { style: 'currency', currency: pack.currency.toUpperCase() });
  return format.format(pack.price / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/**
 * Buying credits on Renew & Shop (issue 24): with Stripe, the operator's packs and a "Buy credits" button that
 * sends the buyer to Stripe Checkout; without, the operator's text on how credits are obtained. Coming back
 * from Stripe (?credits=returned or cancelled) shows what happened.
 */
export function BuyCreditsCard({ userId }: { userId: string }) {
  const offer = useCreditOffer();
  const buy = useBuyCredits(userId);
  const [params] = useSearchParams();
  const [chosen, setChosen] = useState<string>();
  const returned = params.get('credits');
  const packs = offer.data?.packs ?? [];
  const packId = chosen ?? packs[0]?.id;

  return (
    <Card heading={m.buyCredits} data-testid="buy-credits">
      {returned === 'returned' && (
        <Banner tone="info" data-testid="buy-credits-returned" className="mb-4">
          {m.purchaseReturned}
        </Banner>
      )}
      {returned === 'cancelled' && (
        <Banner tone="warning" data-testid="buy-credits-cancelled" className="mb-4">
          {m.purchaseCancelled}
        </Banner>
      )}
      {offer.isPending ? (
        <SkeletonRows rows={2} columns={1} />
      ) : offer.isError ? (
        <p role="alert" className="text-red-400">
          {offer.error.message}
        </p>
      ) : !offer.data.stripeConfigured ? (
        <p data-testid="credits-how-to" className="whitespace-pre-line text-ink-muted text-sm">
          {offer.data.howTo}
        </p>
      ) : packs.length === 0 ? (
        <p className="text-ink-muted text-sm">{m.noPacks}</p>
      ) : (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-ink-muted text-sm">{m.choosePack}</legend>
          {packs.map((pack) => (
            <label key={pack.id} className="flex cursor-pointer items-center gap-3 text-ink text-sm">
              <input
                type="radio"
                name="credit-pack"
                value={pack.id}
                checked={pack.id === packId}
                onChange={() => setChosen(pack.id)}
              />
              <span className="flex-1">
                {pack.name} — {pack.credits} credits
              </span>
              <span className="font-medium">{formatPrice(pack)}</span>
            </label>
          ))}
          <Button
            data-testid="buy-credits-button"
            loading={buy.isPending}
            disabled={!packId}
            onClick={() => packId && buy.mutate(packId)}
          >
            {m.buyCredits}
          </Button>
        </fieldset>
      )}
    </Card>
  );
}
