import { Fragment } from 'react';
import { Toggle } from '../../../components/ui/index.ts';
import { flagKeys, flagLabel } from '../player-draft.ts';
import type { PlayerTabProps } from './player-editor-form.tsx';

/** A switch for every Role.* and Title.* flag: the contract's lists plus any other the record holds. */
export function PlayerFlagsTab({ draft, update, errors }: PlayerTabProps) {
  const keys = flagKeys(draft);
  const group = (prefix: 'Role.' | 'Title.', heading: string) => (
    <div className="flex flex-col gap-3">
      <h3 className="font-semibold text-ink-muted text-xs uppercase tracking-wide">{heading}</h3>
      {keys
        .filter((key) => key.startsWith(prefix))
        .map((key) => (
          <Fragment key={key}>
            <Toggle
              label={flagLabel(key)}
              description={key}
              checked={draft[key] === true}
              onChange={(on) => update({ [key]: on })}
            />
            {errors[key] && (
              <p role="alert" className="text-red-400 text-xs">
                {flagLabel(key)}: {errors[key]}
              </p>
            )}
          </Fragment>
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
