import {
  addToCart,
  type Cart,
  cartMax,
  cartTotal,
  pruneCart,
  type ShopItem,
  shopMessages as s,
  setCartQuantity,
  shopLabels,
} from '@canopy/contract';
import { useMemo, useState } from 'react';
import { Card, SkeletonRows, useToast } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useCheckout } from '../api/checkout.ts';
import { useShopItems } from '../api/shop-items.ts';
import { BuyCreditsCard } from './buy-credits-card.tsx';
import { CartPanel } from './cart-panel.tsx';
import { ShopItemCard } from './shop-item-card.tsx';

/**
 * Renew & Shop (spec 2.9): the item grid and the cart. The route gate already locks the page while the
 * shop is disabled (admins bypass) or the account is banned; a collaborator sees the owner-only text
 * and no checkout. The api decides again on every checkout.
 */
export function RenewPage() {
  const { profile } = useRegisteredProfile();
  const items = useShopItems(profile.id);
  // A failed listing is a toast as well as the text in place of the grid (spec 8).
  useErrorToast(items.error);
  const [rawCart, setCart] = useState<Cart>({});
  const toast = useToast();
  const checkout = useCheckout(profile.id, () => setCart({}));
  // Items gone from the listing or bought meanwhile drop out of the cart.
  const cart = useMemo(() => (items.data ? pruneCart(rawCart, items.data) : rawCart), [rawCart, items.data]);
  const total = items.data ? cartTotal(cart, items.data) : 0;
  const canBuy = !profile.isCollaborator;

  const add = (item: ShopItem) => {
    const change = addToCart(cart, item);
    if (change.ok) setCart(change.cart);
    else toast.error(change.message);
  };
  const setQuantity = (id: string, quantity: number) => {
    const item = items.data?.find((i) => i.id === id);
    setCart((current) => setCartQuantity(current, id, quantity, item ? cartMax(item) : undefined));
  };

  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">{s.title}</h1>
        <p className="mt-1 text-ink-muted">{shopLabels.subtitle}</p>
      </header>
      {!canBuy && (
        <Card data-testid="shop-owner-only" className="text-center">
          <p className="text-ink">{s.ownerOnly}</p>
        </Card>
      )}
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div>
          {items.isPending ? (
            <SkeletonRows rows={4} columns={2} />
          ) : items.isError ? (
            <p data-testid="shop-error" role="alert" className="text-red-400">
              {items.error.message}
            </p>
          ) : items.data.length === 0 ? (
            <p className="text-ink-muted">{s.noItems}</p>
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2 2xl:grid-cols-3">
              {items.data.map((item) => (
                <ShopItemCard
                  key={item.id}
                  item={item}
                  quantity={cart[item.id] ?? 0}
                  canBuy={canBuy}
                  onAdd={() => add(item)}
                />
              ))}
            </ul>
          )}
        </div>
        {canBuy && (
          <div className="grid content-start gap-6 self-start">
            <CartPanel
              cart={cart}
              items={items.data ?? []}
              total={total}
              balance={profile.credit}
              checkingOut={checkout.isPending}
              onQuantity={setQuantity}
              onCheckout={() => checkout.mutate(cart)}
            />
            <BuyCreditsCard userId={profile.id} />
          </div>
        )}
      </div>
    </section>
  );
}
