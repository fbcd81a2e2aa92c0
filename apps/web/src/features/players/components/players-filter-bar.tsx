import { useId } from 'react';
import { Button, Input } from '../../../components/ui/index.ts';
import type { PlayerFilters } from '../player-filters.ts';

export interface PlayersFilterBarProps {
  filters: PlayerFilters;
  /** The roles held by some player, for the dropdown after 'All Roles'. */
  roles: readonly string[];
  refreshing: boolean;
  onChange: (filters: PlayerFilters) => void;
  onRefresh: () => void;
}

/** Search by name, Min Level, Min Gems, the role dropdown and Refresh. */
export function PlayersFilterBar({ filters, roles, refreshing, onChange, onRefresh }: PlayersFilterBarProps) {
  const roleId = useId();
  const set = (patch: Partial<PlayerFilters>) => onChange({ ...filters, ...patch });
  return (
    <div className="grid grid-cols-2 items-end gap-3 lg:grid-cols-[2fr_1fr_1fr_1fr_auto]">
      <Input
        label="Search"
        type="search"
        placeholder="Player name"
        data-testid="players-search"
        value={filters.search}
        onChange={(event) => set({ search: event.target.value })}
      />
      <Input
        label="Min Level"
        type="number"
        min={0}
        data-testid="players-min-level"
        value={filters.minLevel}
        onChange={(event) => set({ minLevel: event.target.value })}
      />
      <Input
        label="Min Gems"
        type="number"
        min={0}
        data-testid="players-min-gems"
        value={filters.minGems}
        onChange={(event) => set({ minGems: event.target.value })}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={roleId} className="font-medium text-ink text-sm">
          Role
        </label>
        <select
          id={roleId}
          data-testid="players-role"
          value={filters.role}
          onChange={(event) => set({ role: event.target.value })}
          className="rounded-md border border-line bg-canvas px-3 py-2 text-ink text-sm focus:border-accent"
        >
          <option value="">All Roles</option>
          {roles.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </div>
      <Button variant="secondary" data-testid="players-refresh" loading={refreshing} onClick={onRefresh}>
        Refresh
      </Button>
    </div>
  );
}
