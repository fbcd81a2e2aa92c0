import { type CreditPack, type CreditPackInput, DEFAULT_CREDITS_HOW_TO } from '@canopy/contract';
import { useState } from 'react';
import { Button, Card, Input, SkeletonRows, Toggle } from '../../../components/ui/index.ts';
import { formatPrice } from '../../shop/components/buy-credits-card.tsx';
import { useAdminCan } from '../admin-caller.ts';
import { useAdminCreditPacks, useSaveCreditPack, useSaveCreditsHowTo } from './api/credit-packs.ts';

const blank: CreditPackInput = { name: '', credits: 100, price: 100, currency: 'usd', active: true, sortOrder: 0 };

/**
 * The Settings tab's shop for credits (issue 24): the packs Renew & Shop sells through Stripe, and the text shown
 * instead when Stripe is not configured. Read with settings:view, written with settings:manage (the api decides).
 */
export function CreditPacksSection() {
  const canManage = useAdminCan()('settings:manage');
  const packs = useAdminCreditPacks();
  const [editing, setEditing] = useState<{ id?: string; pack: CreditPackInput }>();
  if (!packs.data) return packs.isError ? null : <SkeletonRows rows={3} />;
  const { stripeConfigured } = packs.data;
  return (
    <Card heading="Credit packs" data-testid="admin-credit-packs">
      <p className="mb-3 text-ink-muted text-sm">
        {stripeConfigured
          ? 'Stripe is configured: Renew & Shop sells the active packs below.'
          : 'Stripe is not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET): Renew & Shop shows the text below instead of packs.'}
      </p>
      <ul className="mb-3 flex flex-col divide-y divide-line/60">
        {packs.data.packs.map((pack: CreditPack) => (
          <li key={pack.id} className="flex items-center gap-3 py-2 text-sm">
            <span className="flex-1 text-ink">
              {pack.name} — {pack.credits} credits, {formatPrice(pack)}
              {!pack.active && <span className="ml-2 text-ink-muted">(inactive)</span>}
            </span>
            {canManage && (
              <Button size="sm" variant="secondary" onClick={() => setEditing({ id: pack.id, pack })}>
                Edit
              </Button>
            )}
          </li>
        ))}
      </ul>
      {canManage && !editing && (
        <Button size="sm" data-testid="admin-credit-pack-new" onClick={() => setEditing({ pack: blank })}>
          New pack
        </Button>
      )}
      {editing && <PackEditor key={editing.id ?? 'new'} {...editing} onDone={() => setEditing(undefined)} />}
      <HowToEditor saved={packs.data.howTo} canManage={canManage} />
    </Card>
  );
}

function PackEditor({ id, pack, onDone }: { id?: string; pack: CreditPackInput; onDone: () => void }) {
  const [draft, setDraft] = useState(pack);
  const save = useSaveCreditPack();
  const number = (key: 'credits' | 'price' | 'sortOrder') => ({
    type: 'number',
    value: String(draft[key] ?? 0),
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: Number(e.target.value) }),
  });
  return (
    <form
      className="mt-3 grid gap-3 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ id, pack: draft }, { onSuccess: onDone });
      }}
    >
      <Input label="Name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
      <Input label="Credits" {...number('credits')} />
      <Input label="Price (minor units, e.g. cents)" {...number('price')} />
      <Input
        label="Currency"
        value={draft.currency}
        onChange={(e) => setDraft({ ...draft, currency: e.target.value })}
      />
      <Input label="Sort order" {...number('sortOrder')} />
      <Toggle label="On sale" checked={draft.active} onChange={(active) => setDraft({ ...draft, active })} />
      <div className="flex gap-3 sm:col-span-2">
        <Button type="submit" loading={save.isPending}>
          Save pack
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function HowToEditor({ saved, canManage }: { saved: string; canManage: boolean }) {
  const [text, setText] = useState(saved);
  const save = useSaveCreditsHowTo();
  return (
    <form
      className="mt-5 flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(text);
      }}
    >
      <label htmlFor="credits-how-to" className="text-ink text-sm">
        How credits are obtained without Stripe (empty: the default text)
      </label>
      <textarea
        id="credits-how-to"
        className="min-h-24 rounded-md border border-line bg-surface px-3 py-2 text-ink text-sm"
        value={text}
        placeholder={DEFAULT_CREDITS_HOW_TO}
        maxLength={2000}
        disabled={!canManage}
        onChange={(e) => setText(e.target.value)}
      />
      {canManage && (
        <Button type="submit" size="sm" className="self-end" loading={save.isPending} disabled={text === saved}>
          Save text
        </Button>
      )}
    </form>
  );
}
