import { MAX_STACK } from '@canopy/contract';
import { useMemo } from 'react';
import { Button } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { useAllItems } from '../../../lib/all-items-query.ts';
import { asArray, asNumberText, fromNumberText } from '../../../lib/json-draft.ts';
import { addInventoryItem, inventoryRows, removeInventoryEntry, setInventoryCount } from '../player-draft.ts';
import { InventoryAddRow } from './inventory-add-row.tsx';
import type { PlayerTabProps } from './player-editor-form.tsx';

const cell = 'px-3 py-2';

/** The inventory as [item, count] rows with item names from the item database; add, change, remove. */
export function PlayerInventoryTab({ draft, update, errors }: PlayerTabProps) {
  const items = useAllItems();
  useErrorToast(items.error);
  const names = useMemo(() => new Map((items.data ?? []).map((i) => [i.item_id, i.name])), [items.data]);
  const inventory = asArray(draft.inventory);
  const rows = inventoryRows(draft);

  return (
    <div className="flex flex-col gap-4">
      <InventoryAddRow
        items={items.data ?? []}
        onAdd={(itemId, count) => update({ inventory: addInventoryItem(inventory, itemId, count) })}
      />
      {errors.inventory && <p className="text-red-400 text-xs">{errors.inventory}</p>}
      <div className="max-h-80 overflow-y-auto rounded-lg border border-line">
        <table data-testid="player-inventory" className="w-full text-left text-sm">
          <thead className="sticky top-0 bg-surface-raised text-ink-muted text-xs uppercase tracking-wide">
            <tr>
              <th className={cell}>Item</th>
              <th className={cell}>ID</th>
              <th className={cell}>Count</th>
              <th className={`${cell} text-right`}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line/60">
            {rows.length === 0 && (
              <tr>
                <td colSpan={4} className="px-3 py-6 text-center text-ink-muted">
                  The inventory is empty.
                </td>
              </tr>
            )}
            {rows.map(({ row: [itemId, count], index }) => {
              const name = names.get(itemId) ?? (items.isPending ? '…' : 'Unknown item');
              return (
                <tr key={index} data-testid="inventory-row" data-item-id={itemId}>
                  <td className={`${cell} text-ink`}>{name}</td>
                  <td className={`${cell} font-mono text-ink-muted`}>{itemId}</td>
                  <td className={cell}>
                    <input
                      type="number"
                      min={1}
                      max={MAX_STACK}
                      aria-label={`Count of ${name}`}
                      value={asNumberText(count)}
                      onChange={(event) =>
                        update({ inventory: setInventoryCount(inventory, index, fromNumberText(event.target.value)) })
                      }
                      className="w-24 rounded-md border border-line bg-canvas px-2 py-1 text-ink text-sm focus:border-accent"
                    />
                  </td>
                  <td className={`${cell} text-right`}>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove ${name}`}
                      onClick={() => update({ inventory: removeInventoryEntry(inventory, index) })}
                    >
                      Remove
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
