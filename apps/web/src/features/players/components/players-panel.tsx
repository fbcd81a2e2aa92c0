import { useState } from 'react';
import { Card, ConfirmDialog, Pagination } from '../../../components/ui/index.ts';
import { useErrorToast } from '../../../hooks/use-error-toast.ts';
import { pageSlice } from '../../../lib/pagination.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useBanPlayer } from '../api/ban-player.ts';
import { usePlayers } from '../api/get-players.ts';
import { useUnbanPlayer } from '../api/unban-player.ts';
import {
  filterPlayers,
  noPlayerFilters,
  PLAYERS_PAGE_SIZE,
  type PlayerFilters,
  roleOptions,
} from '../player-filters.ts';
import { PlayerEditor } from './player-editor.tsx';
import { PlayersFilterBar } from './players-filter-bar.tsx';
import { PlayersTable } from './players-table.tsx';

/** The filter bar, the players table with paging, the editor, the ban confirmation and unban. */
export function PlayersPanel() {
  const { profile } = useRegisteredProfile();
  const userId = profile.id;
  const players = usePlayers(userId);
  const ban = useBanPlayer(userId);
  const unban = useUnbanPlayer(userId);
  const [filters, setFilters] = useState<PlayerFilters>(noPlayerFilters);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<string | null>(null);
  const [banning, setBanning] = useState<string | null>(null);
  useErrorToast(players.error);

  const all = players.data?.players ?? [];
  const matches = filterPlayers(all, filters);
  const shown = pageSlice(matches, page, PLAYERS_PAGE_SIZE);

  return (
    <Card
      heading="Players"
      actions={
        players.data && (
          <span data-testid="players-count" className="text-ink-muted text-sm">
            {matches.length === all.length ? `${all.length} players` : `${matches.length} of ${all.length} players`}
          </span>
        )
      }
    >
      <div className="flex flex-col gap-4">
        <PlayersFilterBar
          filters={filters}
          roles={roleOptions(all)}
          refreshing={players.isFetching}
          onChange={(next) => {
            setFilters(next);
            setPage(1);
          }}
          onRefresh={() => void players.refetch()}
        />
        {players.isError ? (
          <p data-testid="players-error" role="alert" className="py-6 text-center text-red-400">
            {players.error.message}
          </p>
        ) : (
          <PlayersTable
            rows={shown.items}
            total={all.length}
            loading={players.isPending}
            onEdit={setEditing}
            onBan={setBanning}
            onUnban={(name) => unban.mutate(name)}
            unbanning={unban.isPending ? (unban.variables ?? null) : null}
          />
        )}
        <Pagination page={shown.page} totalPages={shown.totalPages} onPageChange={setPage} />
      </div>
      {editing && <PlayerEditor userId={userId} name={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={banning !== null}
        title="Ban Player"
        message={`Ban ${banning}? They will no longer be able to join your server.`}
        confirmLabel="Confirm Ban"
        tone="danger"
        loading={ban.isPending}
        onCancel={() => setBanning(null)}
        onConfirm={() => {
          if (banning) ban.mutate(banning, { onSettled: () => setBanning(null) });
        }}
      />
    </Card>
  );
}
