import { MAX_STACK } from '@canopy/contract';
import { useId, useState } from 'react';
import { ItemSuggestions } from '../../../components/item-suggestions.tsx';
import { Button, Input } from '../../../components/ui/index.ts';
import { searchItems } from '../player-draft.ts';

interface ItemName {
  item_id: number;
  name: string;
}

export interface InventoryAddRowProps {
  items: readonly ItemName[];
  onAdd: (itemId: number, count: number) => void;
}

const MAX_ITEM_ID = 65535;

/** Finds an item by name or id (up to 8 suggestions), takes a count (default 1) and adds it. */
export function InventoryAddRow({ items, onAdd }: InventoryAddRowProps) {
  const listId = useId();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<ItemName | null>(null);
  const [count, setCount] = useState('1');
  const suggestions = chosen ? [] : searchItems(items, query);
  const typedId = /^\d+$/.test(query.trim()) ? Number(query.trim()) : null;
  const itemId = chosen?.item_id ?? (typedId !== null && typedId <= MAX_ITEM_ID ? typedId : null);
  const amount = Number(count);
  const valid = itemId !== null && Number.isInteger(amount) && amount >= 1 && amount <= MAX_STACK;

  function add() {
    if (!valid || itemId === null) return;
    onAdd(itemId, amount);
    setQuery('');
    setChosen(null);
    setCount('1');
  }

  return (
    <div className="relative flex flex-wrap items-end gap-2">
      <Input
        label="Add item"
        placeholder="Item name or ID"
        className="min-w-48 flex-1"
        aria-controls={listId}
        value={chosen ? `${chosen.name} (${chosen.item_id})` : query}
        onChange={(event) => {
          setChosen(null);
          setQuery(event.target.value);
        }}
        onKeyDown={(event) => {
          // Enter adds the item instead of submitting (saving) the whole player.
          if (event.key === 'Enter') {
            event.preventDefault();
            add();
          }
        }}
      />
      <Input
        label="Count"
        type="number"
        min={1}
        max={MAX_STACK}
        className="w-24"
        value={count}
        onChange={(event) => setCount(event.target.value)}
      />
      <Button variant="secondary" onClick={add} disabled={!valid}>
        Add
      </Button>
      <ItemSuggestions id={listId} items={suggestions} onPick={setChosen} className="top-full mt-1 max-h-64 max-w-md" />
    </div>
  );
}
