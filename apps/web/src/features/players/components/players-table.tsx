import { type PlayerListRow, serverPageMessages } from '@canopy/contract';
import { Button, SkeletonTableRows } from '../../../components/ui/index.ts';
import { banActionOf } from '../player-ban.ts';
import { emptyPlayersReason } from '../player-filters.ts';
import { BannedBadge } from './banned-badge.tsx';

export interface PlayersTableProps {
  rows: readonly PlayerListRow[];
  /** Players on the server before filtering (decides which empty text shows). */
  total: number;
  loading: boolean;
  onEdit: (name: string) => void;
  onBan: (name: string) => void;
  onUnban: (name: string) => void;
  /** The player whose unban is in flight (its button spins). */
  unbanning: string | null;
}

const cell = 'px-3 py-2.5';
// On a phone only Name and Actions keep a column; the other values go under the name.
const wide = 'hidden sm:table-cell';
const roleColours: Record<string, string> = {
  Developer: 'bg-fuchsia-500/15 text-fuchsia-300 ring-fuchsia-500/30',
  Administrator: 'bg-red-500/15 text-red-300 ring-red-500/30',
  Moderator: 'bg-sky-500/15 text-sky-300 ring-sky-500/30',
  VIP: 'bg-amber-500/15 text-amber-300 ring-amber-500/30',
};
const otherRole = 'bg-slate-500/15 text-slate-300 ring-slate-500/30';

/**
 * Columns Name (with a Banned badge), Level, Gems (locale-formatted), Roles (badges or 'No Roles') and the
 * actions Edit and Ban, or Unban for a banned player.
 */
export function PlayersTable({ rows, total, loading, onEdit, onBan, onUnban, unbanning }: PlayersTableProps) {
  const empty = loading ? null : emptyPlayersReason(total, rows.length);
  return (
    <div className="overflow-x-auto rounded-lg border border-line">
      <table data-testid="players-table" aria-busy={loading || undefined} className="w-full text-left text-sm">
        <thead className="bg-surface-raised/60 text-ink-muted text-xs uppercase tracking-wide">
          <tr>
            <th className={cell}>Name</th>
            <th className={`${cell} ${wide}`}>Level</th>
            <th className={`${cell} ${wide}`}>Gems</th>
            <th className={`${cell} ${wide}`}>Roles</th>
            <th className={`${cell} text-right`}>Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line/60">
          {loading && <SkeletonTableRows rows={5} columns={5} />}
          {empty && (
            <tr>
              <td colSpan={5} data-testid="players-empty" className="px-3 py-8 text-center text-ink-muted">
                {empty === 'none' ? serverPageMessages.noPlayers : serverPageMessages.noPlayersMatch}
              </td>
            </tr>
          )}
          {rows.map((player) => (
            <tr
              key={player.id}
              data-testid="player-row"
              data-name={player.name}
              data-banned={player.banned || undefined}
              className="hover:bg-surface-raised/40"
            >
              <td className={`${cell} font-medium text-ink`}>
                <span className="flex flex-wrap items-center gap-2 break-all">
                  {player.name}
                  {player.banned && <BannedBadge />}
                </span>
                <span className="mt-1 block font-normal text-ink-muted text-xs sm:hidden">
                  Level {player.level} · {player.gems.toLocaleString()} gems
                  {player.roles.length > 0 && ` · ${player.roles.join(', ')}`}
                </span>
              </td>
              <td className={`${cell} ${wide} tabular-nums`}>{player.level}</td>
              <td className={`${cell} ${wide} tabular-nums`}>{player.gems.toLocaleString()}</td>
              <td className={`${cell} ${wide}`}>
                {player.roles.length === 0 ? (
                  <span className="text-ink-muted text-xs">No Roles</span>
                ) : (
                  <span className="flex flex-wrap gap-1">
                    {player.roles.map((role) => (
                      <span
                        key={role}
                        className={`rounded-full px-2 py-0.5 font-medium text-xs ring-1 ${roleColours[role] ?? otherRole}`}
                      >
                        {role}
                      </span>
                    ))}
                  </span>
                )}
              </td>
              <td className={`${cell} text-right`}>
                <div className="inline-flex flex-col gap-2 sm:flex-row">
                  <Button size="sm" variant="secondary" data-testid="player-edit" onClick={() => onEdit(player.name)}>
                    Edit
                  </Button>
                  {banActionOf(player) === 'unban' ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      data-testid="player-unban"
                      loading={unbanning === player.name}
                      onClick={() => onUnban(player.name)}
                    >
                      Unban
                    </Button>
                  ) : (
                    <Button size="sm" variant="danger" data-testid="player-ban" onClick={() => onBan(player.name)}>
                      Ban
                    </Button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
