import { useState } from 'react';
import { Button, Input } from '../../../components/ui/index.ts';
import { asArray, asText } from '../../../lib/json-draft.ts';
import { normaliseAdmins } from '../world-draft.ts';
import type { WorldTabProps } from './world-editor-form.tsx';

/** The world's admins (GrowIDs): add and remove; the list is trimmed and de-duplicated on save. */
export function WorldAdminsTab({ draft, update, errors }: WorldTabProps) {
  const [growId, setGrowId] = useState('');
  const admins = asArray(draft.admins);

  function add() {
    if (!growId.trim()) return;
    update({ admins: normaliseAdmins([...admins, growId]) });
    setGrowId('');
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-end gap-2">
        <Input
          label="Add admin"
          placeholder="GrowID"
          className="flex-1"
          value={growId}
          error={errors.admins}
          onChange={(event) => setGrowId(event.target.value)}
          onKeyDown={(event) => {
            // Enter adds the admin instead of submitting (saving) the whole world.
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <Button variant="secondary" onClick={add} disabled={!growId.trim()} className={errors.admins ? 'mb-6' : ''}>
          Add
        </Button>
      </div>
      {admins.length === 0 ? (
        <p data-testid="world-admins-empty" className="text-ink-muted">
          This world has no admins.
        </p>
      ) : (
        <ul data-testid="world-admins" className="flex max-h-60 flex-col divide-y divide-line/60 overflow-y-auto">
          {admins.map((admin, index) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: the raw list may hold duplicates until it is saved
              key={index}
              className="flex items-center justify-between gap-3 py-2"
            >
              <span className="font-mono text-ink">{asText(admin)}</span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove ${asText(admin)}`}
                onClick={() => update({ admins: admins.filter((_, i) => i !== index) })}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
