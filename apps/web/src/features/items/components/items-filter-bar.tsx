import { useId } from 'react';
import { Input } from '../../../components/ui/index.ts';
import {
  clothingTypeOptions,
  type FilterOption,
  type ItemFilters,
  itemKindOptions,
  rarityOptions,
} from '../item-filters.ts';

function FilterSelect(props: {
  label: string;
  testId: string;
  value: number;
  options: FilterOption[];
  onChange: (value: number) => void;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="truncate font-medium text-ink text-sm">
        {props.label}
      </label>
      <select
        id={id}
        data-testid={props.testId}
        value={props.value}
        onChange={(event) => props.onChange(Number(event.target.value))}
        className="min-w-0 rounded-md border border-line bg-canvas px-2 py-2 text-ink text-sm focus:border-accent sm:px-3"
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Search box and the three filters of spec section 9. */
export function ItemsFilterBar({ filters, onChange }: { filters: ItemFilters; onChange: (next: ItemFilters) => void }) {
  const set = (patch: Partial<ItemFilters>) => onChange({ ...filters, ...patch });
  return (
    <div className="grid grid-cols-3 gap-3 lg:grid-cols-[2fr_1fr_1fr_1fr]">
      <Input
        label="Search items"
        type="search"
        placeholder="Name or ID"
        data-testid="items-search"
        className="col-span-3 lg:col-span-1"
        value={filters.name}
        maxLength={100}
        onChange={(event) => set({ name: event.target.value })}
      />
      <FilterSelect
        label="Rarity"
        testId="items-rarity"
        value={filters.rarity}
        options={rarityOptions}
        onChange={(rarity) => set({ rarity })}
      />
      <FilterSelect
        label="Clothing type"
        testId="items-clothing-type"
        value={filters.clothingType}
        options={clothingTypeOptions}
        onChange={(clothingType) => set({ clothingType })}
      />
      <FilterSelect
        label="Item kind"
        testId="items-item-kind"
        value={filters.itemKind}
        options={itemKindOptions}
        onChange={(itemKind) => set({ itemKind })}
      />
    </div>
  );
}
