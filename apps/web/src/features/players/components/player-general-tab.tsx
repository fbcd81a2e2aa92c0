import { Input } from '../../../components/ui/index.ts';
import { asText } from '../../../lib/json-draft.ts';
import type { PlayerTabProps } from './player-editor-form.tsx';

/** Email, home world (upper-cased as typed) and a new password (empty keeps the current one). */
export function PlayerGeneralTab({ draft, update, errors }: PlayerTabProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Input
        label="Email"
        type="email"
        autoComplete="off"
        value={asText(draft.email)}
        error={errors.email}
        onChange={(event) => update({ email: event.target.value })}
      />
      <Input
        label="Home World"
        autoComplete="off"
        value={asText(draft.home_world)}
        error={errors.home_world}
        onChange={(event) => update({ home_world: event.target.value.toUpperCase() })}
      />
      <Input
        label="Password"
        type="password"
        autoComplete="new-password"
        placeholder="Leave empty to keep the current password"
        hint="Leave empty to keep the current password."
        value={asText(draft.pass)}
        error={errors.pass}
        onChange={(event) => update({ pass: event.target.value })}
        className="sm:col-span-2"
      />
    </div>
  );
}
