import { adminPanelMessages, adminServerLabels as l, type PowerAction } from '@canopy/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useToast } from '../../../components/ui/index.ts';
import { useAdminCan } from '../admin-caller.ts';
import { useAdminSearch, useClampedPage } from '../api/admin-list-state.ts';
import { reloadAfterAdminWrite } from '../api/admin-mutation.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { postServerAction, serversListKey, useAdminServers } from './api/servers-api.ts';
import { DeleteServerDialog } from './delete-server-dialog.tsx';
import { ServersTable } from './servers-table.tsx';

/**
 * The Servers tab of /admin (admin document, sections 2 and 4): every hosted server, searched by name or owner
 * GrowID, with start, stop, restart (servers:manage) and delete (servers:delete) per row.
 */
export function ServersTab() {
  const can = useAdminCan();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { input, setInput, search, page, setPage } = useAdminSearch();
  const list = useAdminServers(page, search);
  const pages = useClampedPage(page, setPage, list.data);
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
          value: input,
          onChange: setInput,
          placeholder: l.searchPlaceholder,
          label: l.searchLabel,
        }}
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={pages}
        onPageChange={setPage}
      >
        <ServersTable
          rows={list.data?.items ?? []}
          searching={search.trim() !== ''}
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
