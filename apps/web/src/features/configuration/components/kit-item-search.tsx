import { configurationMessages as c, NEWBIE_KIT_SUGGESTIONS } from '@canopy/contract';
import { useId, useState } from 'react';
import { ItemSuggestions } from '../../../components/item-suggestions.tsx';
import { Button, Input, useToast } from '../../../components/ui/index.ts';
import { parseQuantity, searchKitItems } from '../newbie-kit-draft.ts';

interface ItemName {
  item_id: number;
  name: string;
}

export interface KitItemSearchProps {
  items: readonly ItemName[];
  loading: boolean;
  onAdd: (itemId: number, quantity: number) => void;
}

/** Search the item database by name (at most 10 suggestions with name and ID), a quantity (default 1), Add. */
export function KitItemSearch({ items, loading, onAdd }: KitItemSearchProps) {
  const toast = useToast();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<ItemName | null>(null);
  const [quantity, setQuantity] = useState('1');
  const suggestions = chosen ? [] : searchKitItems(items, query, NEWBIE_KIT_SUGGESTIONS);

  function add() {
    if (!chosen) return;
    const qty = parseQuantity(quantity);
    if (qty === null) return toast.error(c.invalidQuantity);
    onAdd(chosen.item_id, qty);
    setChosen(null);
    setQuery('');
    setQuantity('1');
  }

  return (
    <div className="relative flex flex-col gap-3">
      <Input
        label="Search Item"
        placeholder={loading ? 'Loading the item database…' : 'Type an item name'}
        aria-controls={listId}
        autoComplete="off"
        value={chosen ? `${chosen.name} (ID ${chosen.item_id})` : query}
        onChange={(event) => {
          setChosen(null);
          setQuery(event.target.value);
        }}
      />
      <ItemSuggestions id={listId} items={suggestions} onPick={setChosen} className="top-[4.25rem] max-h-72" />
      <div className="flex items-end gap-2">
        <Input
          label="Quantity"
          inputMode="numeric"
          className="w-32"
          value={quantity}
          onChange={(event) => setQuantity(event.target.value)}
        />
        <Button variant="secondary" onClick={add} disabled={!chosen}>
          Add Item
        </Button>
      </div>
    </div>
  );
}
