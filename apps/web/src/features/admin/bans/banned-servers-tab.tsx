import {
  adminPanelMessages,
  adminAuditMessages as audit,
  bannedServerNamePageSchema,
  adminBanLabels as l,
} from '@canopy/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/index.ts';
import { useAdminCan } from '../admin-caller.ts';
import { useAdminList } from '../api/admin-list.ts';
import { useAdminSearch, useClampedPage } from '../api/admin-list-state.ts';
import { useAdminMutation } from '../api/admin-mutation.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { AddBannedServerForm } from './add-banned-server-form.tsx';
import { bannedServersKey, deleteBannedServer, postBannedServer } from './api/banned-servers-api.ts';
import { BannedServersTable } from './banned-servers-table.tsx';

/**
 * The Banned Servers tab of /admin (admin document, sections 2 and 5): the banned names, an add form and a
 * remove action; adding and removing need bans:manage.
 */
export function BannedServersTab() {
  const can = useAdminCan();
  const canManage = can('bans:manage');
  const { input, setInput, search, page, setPage } = useAdminSearch();
  const [removing, setRemoving] = useState<string | null>(null);
  const list = useAdminList({
    list: 'banned-servers',
    path: '/admin/banned-servers',
    schema: bannedServerNamePageSchema,
    page,
    search,
    fallback: adminPanelMessages.fetchBannedServers,
  });
  const pages = useClampedPage(page, setPage, list.data);
  const add = useAdminMutation({
    mutationFn: postBannedServer,
    success: (answer) => answer.message,
    fallback: adminPanelMessages.addBan,
    invalidate: [bannedServersKey],
  });
  const remove = useAdminMutation({
    mutationFn: deleteBannedServer,
    success: (answer) => answer.message,
    fallback: adminPanelMessages.unban,
    invalidate: [bannedServersKey],
  });

  return (
    <div className="flex flex-col gap-4">
      {canManage && (
        <AddBannedServerForm
          busy={add.isPending}
          onAdd={(request) =>
            add.mutateAsync(request).then(
              () => true,
              () => false,
            )
          }
        />
      )}
      <AdminListFrame
        testId="admin-banned-servers"
        search={{
          value: input,
          onChange: setInput,
          placeholder: audit.bannedServerSearchPlaceholder,
          label: audit.bannedServerSearchLabel,
        }}
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={pages}
        onPageChange={setPage}
      >
        <BannedServersTable rows={list.data?.items ?? []} canManage={canManage} onRemove={setRemoving} />
      </AdminListFrame>
      <ConfirmDialog
        open={removing !== null}
        title={l.removeTitle}
        message={l.removeConfirm(removing ?? '')}
        confirmLabel={l.remove}
        cancelLabel={l.cancel}
        tone="danger"
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing, { onSettled: () => setRemoving(null) })}
      />
    </div>
  );
}
