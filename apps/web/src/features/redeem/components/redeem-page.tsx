import { redeemLabels, type WebRoute } from '@canopy/contract';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useRedeemCode } from '../api/redeem-code.ts';
import { PublicCodeList } from './public-code-list.tsx';
import { RedeemForm } from './redeem-form.tsx';

/** The Redeem Code page (spec 2.8): a private code field and the public codes. */
export function RedeemPage({ route }: { route: WebRoute }) {
  const { profile } = useRegisteredProfile();
  // One mutation for the field and the list: one redeem at a time, one set of toasts.
  const redeem = useRedeemCode(profile.id);
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">{route.label}</h1>
        <p className="text-ink-muted text-sm">
          {redeemLabels.intro} <span data-testid="redeem-slots">{profile.availableSlot}</span>
        </p>
      </header>
      <RedeemForm redeem={redeem} />
      <PublicCodeList userId={profile.id} redeem={redeem} />
    </section>
  );
}
