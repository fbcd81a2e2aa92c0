import { adminContentLabels as labels } from '@canopy/contract';
import { useEffect, useState } from 'react';
import { Button, ConfirmDialog } from '../../../components/ui/index.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useAdminCan } from '../admin-caller.ts';
import { totalPages } from '../api/admin-list.ts';
import { AdminListFrame } from '../components/admin-list-frame.tsx';
import { useAdminCodes, useDeleteCode } from './api/codes-api.ts';
import { CodesTable } from './codes-table.tsx';
import { CreateCodeDialog } from './create-code-dialog.tsx';

const SEARCH_DEBOUNCE_MS = 300;

/** The Redeem Codes tab of /admin (admin document, section 2): search, list, create and delete (codes:manage). */
export function CodesTab() {
  const can = useAdminCan();
  const manage = can('codes:manage');
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  // One query per pause in typing, not per keystroke.
  const settled = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const list = useAdminCodes(page, settled);
  const remove = useDeleteCode();
  const pages = totalPages(list.data);

  // Deleting the last code of the last page leaves that page empty: step back to one that exists.
  useEffect(() => {
    if (list.data && page > pages) setPage(pages);
  }, [list.data, page, pages]);

  return (
    <>
      <AdminListFrame
        testId="admin-codes"
        search={{
          value: search,
          label: labels.searchCodes,
          placeholder: labels.searchCodesPlaceholder,
          onChange: (text) => {
            setSearch(text);
            setPage(1);
          },
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
