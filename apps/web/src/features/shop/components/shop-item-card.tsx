import { type ShopItem, shopMessages as s } from '@canopy/contract';
import { Button } from '../../../components/ui/index.ts';
import { ItemIcon, isStorageItem, StorageIcon } from './shop-icons.tsx';

/** One item of the grid: icon, name, description, cost in credits, and its purchase state or add button. */
export function ShopItemCard({
  item,
  quantity,
  canBuy,
  onAdd,
}: {
  item: ShopItem;
  /** How many of it the cart holds (0: none). */
  quantity: number;
  canBuy: boolean;
  onAdd: () => void;
}) {
  const storage = isStorageItem(item.id);
  const oneTimeInCart = item.type === 'one_time' && quantity > 0;
  const unusable = canBuy && item.purchaseLimit?.max === 0;
  return (
    <li
      data-testid="shop-item"
      data-id={item.id}
      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <span
          data-testid="shop-item-icon"
          data-icon={storage ? 'storage' : 'item'}
          className="rounded-lg bg-accent/15 p-2 text-accent"
        >
          {storage ? <StorageIcon /> : <ItemIcon />}
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold text-ink">{item.name}</h3>
          <p className="text-ink-muted text-sm">{item.description}</p>
        </div>
      </div>
      {unusable && (
        // The api would refuse it (an Extra Server Slot that could not be used): the reason instead of a button.
        <p
          data-testid="shop-item-unavailable"
          className="mt-auto rounded-md bg-surface-raised px-3 py-2 text-ink-muted text-xs"
        >
          {item.purchaseLimit?.reason}
        </p>
      )}
      <div className={`${unusable ? '' : 'mt-auto '}flex items-center justify-between gap-2`}>
        <span data-testid="shop-item-cost" className="whitespace-nowrap font-semibold text-accent">
          {s.credits(item.cost)}
        </span>
        {unusable ? null : item.isPurchased ? (
          <span
            data-testid="shop-item-purchased"
            className="rounded-full bg-emerald-500/15 px-3 py-1 font-medium text-emerald-400 text-xs"
          >
            {s.purchased}
          </span>
        ) : canBuy ? (
          <span className="flex items-center gap-2">
            {/* On a phone the cart is below the grid: the card itself shows that the add worked. */}
            {item.type === 'quantifiable' && quantity > 0 && (
              <span data-testid="shop-item-in-cart" className="whitespace-nowrap text-ink-muted text-xs">
                {s.inCart} ×{quantity}
              </span>
            )}
            <Button
              size="sm"
              variant={oneTimeInCart ? 'secondary' : 'primary'}
              className="whitespace-nowrap"
              onClick={onAdd}
            >
              {oneTimeInCart ? s.inCart : s.addToCart}
            </Button>
          </span>
        ) : null}
      </div>
    </li>
  );
}
