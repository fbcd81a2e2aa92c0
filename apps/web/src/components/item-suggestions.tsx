/** An item of the item database as the pickers list it (GET /all-items). */
interface ItemName {
  item_id: number;
  name: string;
}

/**
 * The list of matching items under an item search field (the newbie kit's and the inventory editor's):
 * each row shows the name and the ID, and picking one hands it back. `className` places the list.
 */
export function ItemSuggestions({
  id,
  items,
  onPick,
  className,
}: {
  id: string;
  items: readonly ItemName[];
  onPick: (item: ItemName) => void;
  className: string;
}) {
  if (items.length === 0) return null;
  return (
    <ul
      id={id}
      aria-label="Matching items"
      className={`absolute left-0 z-10 w-full overflow-y-auto rounded-md border border-line bg-surface-raised shadow-lg ${className}`}
    >
      {items.map((item) => (
        <li key={item.item_id}>
          <button
            type="button"
            onClick={() => onPick(item)}
            className="flex w-full justify-between gap-3 px-3 py-2 text-left text-sm hover:bg-slate-700"
          >
            <span className="truncate text-ink">{item.name}</span>
            <span className="shrink-0 font-mono text-ink-muted">ID {item.item_id}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
