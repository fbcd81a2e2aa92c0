import { adminContentLabels as labels } from '@canopy/contract';
import { useState } from 'react';
import { Button, ConfirmDialog } from '../../../components/ui/index.ts';
import { useAdminCan } from '../admin-caller.ts';
import { useAdminSearch, useClampedPage } from '../api/admin-list-state.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { useAdminCodes, useDeleteCode } from './api/codes-api.ts';
import { CodesTable } from './codes-table.tsx';
import { CreateCodeDialog } from './create-code-dialog.tsx';

/** The Redeem Codes tab of /admin (admin document, section 2): search, list, create and delete (codes:manage). */
export function CodesTab() {
  const can = useAdminCan();
  const manage = can('codes:manage');
  const { input, setInput, search, page, setPage } = useAdminSearch();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = useAdminCodes(page, search);
  const remove = useDeleteCode();
  const pages = useClampedPage(page, setPage, list.data);

  return (
    <>
      <AdminListFrame
        testId="admin-codes"
        search={{
          value: input,
          label: labels.searchCodes,
          placeholder: labels.searchCodesPlaceholder,
          onChange: setInput,
        }}
        actions={manage && <Button onClick={() => setCreating(true)}>{labels.createCode}</Button>}
        hasData={list.data !== undefined}
        error={list.error}
        page={page}
        totalPages={pages}
        onPageChange={setPage}
      >
        <CodesTable codes={list.data?.items ?? []} onDelete={manage ? setDeleting : undefined} />
      </AdminListFrame>
      <CreateCodeDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title={labels.deleteTitle}
        message={labels.deleteConfirm(deleting ?? '')}
        confirmLabel={labels.delete}
        tone="danger"
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}
