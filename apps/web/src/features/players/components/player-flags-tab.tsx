import { Toggle } from '../../../components/ui/index.ts';
import { flagKeys, flagLabel } from '../player-draft.ts';
import type { PlayerTabProps } from './player-editor-form.tsx';

/** A switch for every Role.* and Title.* flag: the contract's lists plus any other the record holds. */
export function PlayerFlagsTab({ draft, update }: PlayerTabProps) {
  const keys = flagKeys(draft);
  const group = (prefix: 'Role.' | 'Title.', heading: string) => (
    <div className="flex flex-col gap-3">
      <h3 className="font-semibold text-ink-muted text-xs uppercase tracking-wide">{heading}</h3>
      {keys
        .filter((key) => key.startsWith(prefix))
        .map((key) => (
          <Toggle
            key={key}
            label={flagLabel(key)}
            description={key}
            checked={draft[key] === true}
            onChange={(on) => update({ [key]: on })}
          />
        ))}
    </div>
  );
  return (
    <div className="grid gap-8 sm:grid-cols-2">
      {group('Role.', 'Roles')}
      {group('Title.', 'Titles')}
    </div>
  );
}
