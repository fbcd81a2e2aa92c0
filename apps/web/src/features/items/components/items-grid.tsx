import { type Item, itemKindLabels, itemMessages } from '@canopy/contract';
import { ItemSprite } from './item-sprite.tsx';

const THUMB = 48;

/** The result grid: a tile per item (sprite, name, id, rarity); a click opens the preview. */
export function ItemsGrid({ items, onOpen }: { items: Item[]; onOpen: (item: Item) => void }) {
  if (items.length === 0)
    return (
      <p data-testid="items-empty" className="py-10 text-center text-ink-muted">
        {itemMessages.noItems}
      </p>
    );
  return (
    <ul
      className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-2 md:grid-cols-3 xl:grid-cols-4"
      data-testid="items-grid"
    >
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            data-testid="item-tile"
            onClick={() => onOpen(item)}
            className="flex w-full items-center gap-3 rounded-lg border border-line bg-canvas p-2 text-left transition-colors hover:border-accent focus-visible:border-accent"
          >
            <ItemSprite item={item} size={THUMB} />
            <span className="flex min-w-0 flex-col">
              <span className="truncate font-medium text-ink">{item.name}</span>
              <span className="text-ink-muted text-xs">
                #{item.id} · {itemKindLabels[item.item_kind] ?? item.item_kind} · Rarity {item.rarity}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
