import { serverPageMessages, type WorldListRow } from '@canopy/contract';
import { Button, SkeletonTableRows, Toggle } from '../../../components/ui/index.ts';

export interface WorldsTableProps {
  rows: readonly WorldListRow[];
  loading: boolean;
  /** True when worlds exist but the search hides them all. */
  emptyBecauseOfSearch: boolean;
  onEdit: (name: string) => void;
  onDelete: (name: string) => void;
  onToggleLock: (name: string, locked: boolean) => void;
}

const cell = 'px-3 py-2.5';
// On a phone Owner and Players go under the name, so that the lock and the actions stay on screen.
const wide = 'hidden sm:table-cell';

/** Columns name, owner, players, locked (a toggle), and the Edit and Delete actions. */
export function WorldsTable({ rows, loading, emptyBecauseOfSearch, onEdit, onDelete, onToggleLock }: WorldsTableProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-line">
      <table data-testid="worlds-table" aria-busy={loading || undefined} className="w-full text-left text-sm">
        <thead className="bg-surface-raised/60 text-ink-muted text-xs uppercase tracking-wide">
          <tr>
            <th className={cell}>Name</th>
            <th className={`${cell} ${wide}`}>Owner</th>
            <th className={`${cell} ${wide}`}>Players</th>
            <th className={cell}>Locked</th>
            <th className={`${cell} text-right`}>Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line/60">
          {loading && <SkeletonTableRows rows={5} columns={5} />}
          {!loading && rows.length === 0 && (
            <tr>
              <td colSpan={5} data-testid="worlds-empty" className="px-3 py-8 text-center text-ink-muted">
                {emptyBecauseOfSearch ? serverPageMessages.noWorldsMatch : serverPageMessages.noWorlds}
              </td>
            </tr>
          )}
          {rows.map((world) => (
            <tr key={world.name} data-testid="world-row" data-name={world.name} className="hover:bg-surface-raised/40">
              <td className={`${cell} font-medium font-mono text-ink`}>
                <span className="break-all">{world.name}</span>
                <span className="mt-1 block font-normal font-sans text-ink-muted text-xs sm:hidden">
                  {world.owner || 'No owner'} · {world.players} {world.players === 1 ? 'player' : 'players'}
                </span>
              </td>
              <td className={`${cell} ${wide} text-ink-muted`}>{world.owner || '—'}</td>
              <td className={`${cell} ${wide} tabular-nums`}>{world.players}</td>
              <td className={cell}>
                <span data-testid="world-lock" data-locked={world.locked} className="inline-flex">
                  <Toggle
                    label={`Lock ${world.name}`}
                    hideLabel
                    checked={world.locked}
                    onChange={(locked) => onToggleLock(world.name, locked)}
                  />
                </span>
              </td>
              <td className={`${cell} text-right`}>
                <div className="inline-flex flex-col gap-2 sm:flex-row">
                  <Button size="sm" variant="secondary" data-testid="world-edit" onClick={() => onEdit(world.name)}>
                    Edit
                  </Button>
                  <Button size="sm" variant="danger" data-testid="world-delete" onClick={() => onDelete(world.name)}>
                    Delete
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
