import {
  adminPanelMessages,
  adminAuditMessages as audit,
  type BanLog,
  banLogPageSchema,
  adminBanLabels as l,
} from '@canopy/contract';
import { useState } from 'react';
import { ConfirmDialog, Input } from '../../../components/ui/index.ts';
import { useAdminCan } from '../admin-caller.ts';
import { useAdminFilters } from '../api/admin-filters.ts';
import { adminKeys, useAdminList } from '../api/admin-list.ts';
import { useClampedPage } from '../api/admin-list-state.ts';
import { useAdminMutation } from '../api/admin-mutation.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { postUserAction } from '../users/api/user-actions.ts';
import { BanLogsTable } from './ban-logs-table.tsx';

/**
 * The Ban Logs tab of /admin (admin document, sections 2 and 8): the paged, read-only ban log, with Unban on
 * the bans that still hold for admins holding users:manage.
 */
export function BanLogsTab() {
  const can = useAdminCan();
  const filter = useAdminFilters({ from: '', to: '' });
  const { page, setPage } = filter;
  const [unbanning, setUnbanning] = useState<BanLog | null>(null);
  const list = useAdminList({
    list: 'ban-logs',
    path: '/admin/ban-logs',
    schema: banLogPageSchema,
    page,
    search: filter.search,
    filters: filter.applied,
    fallback: adminPanelMessages.fetchBanLogs,
  });
  const pages = useClampedPage(page, setPage, list.data);
  const unban = useAdminMutation({
    mutationFn: (discordId: string) => postUserAction(discordId, 'unban', undefined, l.unbanFailed),
    success: () => adminPanelMessages.userUnbanned,
    fallback: l.unbanFailed,
    // The Users tab shows IsBanned too.
    invalidate: [adminKeys.list('ban-logs'), adminKeys.list('users')],
  });

  return (
    <>
      <AdminListFrame
        testId="admin-ban-logs"
        search={{
          value: filter.input,
          onChange: filter.setInput,
          placeholder: audit.banLogSearchPlaceholder,
          label: audit.banLogSearchLabel,
        }}
        actions={
          <>
            <Input
              label={audit.fromLabel}
              type="date"
              value={filter.filters.from}
              onChange={(event) => filter.setFilter('from', event.target.value)}
              className="w-40"
            />
            <Input
              label={audit.toLabel}
              type="date"
              value={filter.filters.to}
              onChange={(event) => filter.setFilter('to', event.target.value)}
              className="w-40"
            />
          </>
        }
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={pages}
        onPageChange={setPage}
      >
        <BanLogsTable rows={list.data?.items ?? []} canUnban={can('users:manage')} onUnban={setUnbanning} />
      </AdminListFrame>
      <ConfirmDialog
        open={unbanning !== null}
        title={l.unbanTitle}
        message={l.unbanConfirm(unbanning ? (unbanning.growId ?? unbanning.discordUsername) : '')}
        confirmLabel={l.unban}
        cancelLabel={l.cancel}
        loading={unban.isPending}
        onCancel={() => setUnbanning(null)}
        onConfirm={() => unbanning && unban.mutate(unbanning.discordId, { onSettled: () => setUnbanning(null) })}
      />
    </>
  );
}
