import { redeemLabels as l, redeemMessages } from '@canopy/contract';
import { Button, Card, SkeletonRows } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { usePublicCodes } from '../api/get-public-codes.ts';
import type { useRedeemCode } from '../api/redeem-code.ts';
import { canRedeem, formatExpiryDay, sortPublicCodes } from '../redeem-view.ts';
import { RedeemStatusPill } from './redeem-status-pill.tsx';

/** The public codes (spec 2.8): reward, status, stock claimed/total, expiry; Redeem only on available ones. */
export function PublicCodeList({ userId, redeem }: { userId: string; redeem: ReturnType<typeof useRedeemCode> }) {
  const list = usePublicCodes(userId);
  // A failed listing is a toast as well as the text in place of the list (spec 8).
  useErrorToast(list.error);

  return (
    <Card heading={l.publicCodes}>
      {list.isPending ? (
        <SkeletonRows rows={3} columns={4} />
      ) : list.isError ? (
        <p data-testid="public-codes-error" className="text-red-400 text-sm">
          {list.error.message || redeemMessages.fetchFailed}
        </p>
      ) : list.data.length === 0 ? (
        <p data-testid="public-codes-empty" className="text-ink-muted text-sm">
          {redeemMessages.noPublicCodes}
        </p>
      ) : (
        <ul data-testid="public-codes" className="flex flex-col gap-2">
          {sortPublicCodes(list.data).map((c) => (
            <li
              key={c.code}
              data-testid="public-code"
              data-code={c.code}
              // The details wrap beside the button, so Redeem stays at the right of every row on a phone too.
              className="flex items-center justify-between gap-3 rounded-lg border border-line bg-canvas/60 px-4 py-3"
            >
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-mono font-semibold text-ink">{c.code}</span>
                  <RedeemStatusPill status={c.status} />
                </p>
                <p className="text-ink-muted text-xs">
                  <span data-testid="public-code-reward" className="font-medium text-accent">
                    {c.reward}
                  </span>
                  {' · '}
                  <span data-testid="public-code-stock">{l.claimed(c.stock.claimed, c.stock.total)}</span>
                  {' · '}
                  <span data-testid="public-code-expiry">
                    {c.expiryDate ? l.expires(formatExpiryDay(c.expiryDate)) : formatExpiryDay(null)}
                  </span>
                </p>
              </div>
              {canRedeem(c) && (
                <Button
                  size="sm"
                  className="shrink-0"
                  data-testid="public-code-redeem"
                  aria-label={l.redeemCode(c.code)}
                  loading={redeem.isPending && redeem.variables?.code === c.code}
                  disabled={redeem.isPending}
                  onClick={() => redeem.redeem({ code: c.code })}
                >
                  {l.redeem}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
