import { adminPanelMessages, adminServerLabels as l, type PowerAction } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useToast } from '../../../components/ui/index.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useAdminCan } from '../admin-caller.ts';
import { totalPages } from '../api/admin-list.ts';
import { reloadAfterAdminWrite } from '../api/admin-mutation.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { postServerAction, serversListKey, useAdminServers } from './api/servers-api.ts';
import { DeleteServerDialog } from './delete-server-dialog.tsx';
import { ServersTable } from './servers-table.tsx';

/** Typing pauses this long before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * The Servers tab of /admin (admin document, sections 2 and 4): every hosted server, searched by name or owner
 * GrowID, with start, stop, restart (servers:manage) and delete (servers:delete) per row.
 */
export function ServersTab() {
  const can = useAdminCan();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const list = useAdminServers(page, settledSearch);
  const [inFlight, setInFlight] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<string | null>(null);

  const mark = (name: string, on: boolean) =>
    setInFlight((current) => {
      const next = new Set(current);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  const action = useMutation({
    mutationFn: ({ name, action }: { name: string; action: PowerAction }) => postServerAction(name, action),
    onMutate: ({ name }) => mark(name, true),
    onSuccess: (answer) => toast.success(answer.message),
    onError: (error) => toast.error(error.message || adminPanelMessages.actionFailed),
    // The row stays pending until the list shows the new (transitional) status, so no button flickers back.
    onSettled: async (_answer, _error, { name }) => {
      await reloadAfterAdminWrite(queryClient, [serversListKey]);
      mark(name, false);
    },
  });

  return (
    <>
      <AdminListFrame
        testId="admin-servers"
        search={{
          value: search,
          onChange: (text) => {
            setSearch(text);
            setPage(1);
          },
          placeholder: l.searchPlaceholder,
          label: l.searchLabel,
        }}
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={totalPages(list.data)}
        onPageChange={setPage}
      >
        <ServersTable
          rows={list.data?.items ?? []}
          searching={settledSearch.trim() !== ''}
          inFlight={inFlight}
          canManage={can('servers:manage')}
          canDelete={can('servers:delete')}
          onAction={(name, kind) => action.mutate({ name, action: kind })}
          onDelete={setDeleting}
        />
      </AdminListFrame>
      <DeleteServerDialog name={deleting} canBan={can('bans:manage')} onClose={() => setDeleting(null)} />
    </>
  );
}
