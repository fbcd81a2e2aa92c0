import type { CollaboratorPermission } from '@canopy/contract';
import { permissionOptions } from '../permission-labels.ts';

export interface PermissionCheckboxesProps {
  value: readonly string[];
  onChange: (next: CollaboratorPermission[]) => void;
  disabled?: boolean;
  error?: string;
}

/** One checkbox per collaborator permission, in the contract's order, with a readable label. */
export function PermissionCheckboxes({ value, onChange, disabled = false, error }: PermissionCheckboxesProps) {
  const toggle = (id: CollaboratorPermission, checked: boolean) => {
    const next = permissionOptions.filter((o) => (o.id === id ? checked : value.includes(o.id))).map((o) => o.id);
    onChange(next);
  };
  return (
    <fieldset className="flex flex-col gap-2" aria-invalid={error ? true : undefined}>
      <legend className="mb-2 font-medium text-ink text-sm">Permissions</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {permissionOptions.map((option) => (
          <label
            key={option.id}
            className="flex cursor-pointer items-start gap-2.5 rounded-md border border-line bg-canvas/60 px-3 py-2 has-checked:border-accent/60 has-disabled:cursor-not-allowed has-disabled:opacity-50"
          >
            <input
              type="checkbox"
              data-testid={`permission-${option.id}`}
              className="mt-0.5 size-4 shrink-0 accent-accent"
              checked={value.includes(option.id)}
              disabled={disabled}
              onChange={(event) => toggle(option.id, event.target.checked)}
            />
            <span className="flex flex-col">
              <span className="font-medium text-ink text-sm">{option.label}</span>
              <span className="text-ink-muted text-xs">{option.description}</span>
            </span>
          </label>
        ))}
      </div>
      {error && <p className="text-red-400 text-xs">{error}</p>}
    </fieldset>
  );
}
