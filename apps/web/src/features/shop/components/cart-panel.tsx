import { type Cart, cartMax, shopLabels as l, type ShopItem, shopMessages as s } from '@canopy/contract';
import { Button, Card } from '../../../components/ui/index.ts';

export interface CartPanelProps {
  cart: Cart;
  items: readonly ShopItem[];
  total: number;
  balance: number;
  checkingOut: boolean;
  onQuantity: (id: string, quantity: number) => void;
  onCheckout: () => void;
}

/** The cart: a line per item (quantity controls for quantifiable ones), the total, the balance and checkout. */
export function CartPanel({ cart, items, total, balance, checkingOut, onQuantity, onCheckout }: CartPanelProps) {
  const lines = items.filter((i) => (cart[i.id] ?? 0) > 0);
  const short = total > balance;
  return (
    <Card heading={s.cart} data-testid="cart" className="self-start">
      {lines.length === 0 ? (
        <p className="text-ink-muted text-sm">{s.cartEmpty}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line/60">
          {lines.map((item) => (
            <CartLine key={item.id} item={item} quantity={cart[item.id] ?? 0} onQuantity={onQuantity} />
          ))}
        </ul>
      )}
      <dl className="mt-4 flex flex-col gap-2 border-line border-t pt-4 text-sm">
        <div className="flex justify-between">
          <dt className="text-ink-muted">{s.total}</dt>
          <dd data-testid="cart-total" className="font-semibold text-ink">
            {s.credits(total)}
          </dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-ink-muted">{s.balance}</dt>
          <dd data-testid="credit-balance" className="font-semibold text-ink">
            {s.credits(balance)}
          </dd>
        </div>
      </dl>
      {short && (
        <p data-testid="cart-short" role="alert" className="mt-3 text-red-400 text-sm">
          {s.notEnoughCredits}
        </p>
      )}
      <Button className="mt-4 w-full" disabled={lines.length === 0 || short} loading={checkingOut} onClick={onCheckout}>
        {s.checkout}
      </Button>
    </Card>
  );
}

function CartLine({
  item,
  quantity,
  onQuantity,
}: {
  item: ShopItem;
  quantity: number;
  onQuantity: (id: string, quantity: number) => void;
}) {
  return (
    <li data-testid="cart-line" data-id={item.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
      <div className="min-w-0">
        <p className="font-medium text-ink text-sm">{item.name}</p>
        <p className="text-ink-muted text-xs">{s.credits(item.cost * quantity)}</p>
      </div>
      <div className="flex items-center gap-1">
        {item.type === 'quantifiable' && (
          <>
            <Button
              size="sm"
              variant="secondary"
              aria-label={l.oneLess(item.name)}
              onClick={() => onQuantity(item.id, quantity - 1)}
            >
              −
            </Button>
            <input
              type="number"
              min={0}
              max={cartMax(item)}
              value={quantity}
              aria-label={l.quantityOf(item.name)}
              // An emptied field is a number being typed, not a removal; 0 removes (spec 5).
              onChange={(e) => {
                if (!Number.isNaN(e.target.valueAsNumber)) onQuantity(item.id, e.target.valueAsNumber);
              }}
              className="w-14 rounded-md border border-line bg-surface-raised px-2 py-1 text-center text-ink text-sm"
            />
            <Button
              size="sm"
              variant="secondary"
              aria-label={l.oneMore(item.name)}
              disabled={quantity >= cartMax(item)}
              onClick={() => onQuantity(item.id, quantity + 1)}
            >
              +
            </Button>
          </>
        )}
        <Button size="sm" variant="ghost" onClick={() => onQuantity(item.id, 0)}>
          {s.remove}
        </Button>
      </div>
    </li>
  );
}
