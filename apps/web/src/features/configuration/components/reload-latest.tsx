import { versionedWriteMessages as v } from '@canopy/contract';
import { useState } from 'react';
import { Button, ConfirmDialog } from '../../../components/ui/index.ts';
import { isVersionConflict } from '../../../lib/api-client.ts';

export interface ReloadLatestProps {
  /** The last save's error: the button shows only for a save refused because the file changed since (409). */
  error: unknown;
  /** Fetches the latest version and starts the tab's draft over from it. */
  onReload: () => void;
  testId: string;
}

/**
 * Beside a Configuration tab's save button after a 409: the refusal's text and Reload, which asks first (the
 * tab's unsaved changes are discarded: these lists are not merged, unlike the world and player editors).
 */
export function ReloadLatest({ error, onReload, testId }: ReloadLatestProps) {
  const [asking, setAsking] = useState(false);
  if (!isVersionConflict(error)) return null;
  return (
    <div className="flex items-center gap-2">
      <p role="alert" className="text-red-400 text-xs">
        {(error as Error).message}
      </p>
      <Button variant="secondary" size="sm" data-testid={testId} onClick={() => setAsking(true)}>
        {v.reload}
      </Button>
      <ConfirmDialog
        open={asking}
        title={v.reloadDiscardTitle}
        message={v.reloadConfigDiscard}
        confirmLabel={v.reloadDiscardConfirm}
        tone="danger"
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          onReload();
        }}
      />
    </div>
  );
}
