import { useId, useState } from 'react';
import { Button, ConfirmDialog, Input, useToast } from '../../../components/ui/index.ts';
import { asArray } from '../../../lib/json-draft.ts';
import { applyBulkEdit, blockProperties, coerceBlockValue } from '../world-draft.ts';
import type { WorldTabProps } from './world-editor-form.tsx';

/** Bulk block edit: one property set to one value on every block, after a confirmation with the count. */
export function WorldBlocksTab({ draft, update, errors }: WorldTabProps) {
  const listId = useId();
  const toast = useToast();
  const [property, setProperty] = useState('');
  const [value, setValue] = useState('');
  const [confirming, setConfirming] = useState(false);
  const blocks = asArray(draft.blocks);
  const name = property.trim();
  const coerced = coerceBlockValue(name, value);

  function apply() {
    update({ blocks: applyBulkEdit(blocks, name, coerced) });
    setConfirming(false);
    toast.info(`Set ${name} on ${blocks.length.toLocaleString()} blocks. Save the world to keep the change.`);
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-ink-muted">
        This world has{' '}
        <span data-testid="world-block-count" className="font-medium text-ink">
          {blocks.length.toLocaleString()}
        </span>{' '}
        blocks. A bulk edit sets one property on every block: o (open) and l (locked) take 1 or 0, fl the flags, if_c
        the infinity cycle. Numeric values are stored as numbers, anything else as text.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Input
          label="Property"
          placeholder="e.g. l"
          list={listId}
          value={property}
          onChange={(event) => setProperty(event.target.value)}
        />
        <datalist id={listId}>
          {blockProperties.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <Input label="Value" placeholder="e.g. 0" value={value} onChange={(event) => setValue(event.target.value)} />
      </div>
      {errors.blocks && <p className="text-red-400 text-xs">{errors.blocks}</p>}
      <div>
        <Button
          variant="secondary"
          data-testid="world-bulk-apply"
          disabled={!name || blocks.length === 0}
          onClick={() => setConfirming(true)}
        >
          Apply to All Blocks
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Bulk Edit Blocks"
        message={`Set ${name} to ${JSON.stringify(coerced)} on all ${blocks.length.toLocaleString()} blocks?`}
        confirmLabel="Apply"
        onCancel={() => setConfirming(false)}
        onConfirm={apply}
      />
    </div>
  );
}
