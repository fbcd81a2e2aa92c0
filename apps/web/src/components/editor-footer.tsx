import { versionedWriteMessages } from '@canopy/contract';
import { Button } from './ui/index.ts';

export interface EditorFooterProps {
  saving: boolean;
  /** Why the last save did not go through; repeated here because toasts sit under the modal's backdrop. */
  problem: string | null;
  onCancel: () => void;
  saveTestId: string;
  /** Offered when the save was refused because the document changed since it was opened (409). */
  onReload?: (() => void) | undefined;
  reloadTestId?: string;
}

/** The bottom bar of a document editor: the last save problem, Cancel, and Save Changes (the form's submit). */
export function EditorFooter({ saving, problem, onCancel, saveTestId, onReload, reloadTestId }: EditorFooterProps) {
  return (
    <div className="-mx-5 -mb-4 flex items-center justify-end gap-2 border-line border-t px-5 py-3">
      {problem && (
        <p data-testid="editor-problem" role="alert" className="mr-auto text-red-400 text-xs">
          {problem}
        </p>
      )}
      {onReload && (
        <Button variant="secondary" onClick={onReload} disabled={saving} data-testid={reloadTestId}>
          {versionedWriteMessages.reload}
        </Button>
      )}
      <Button variant="secondary" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
      <Button type="submit" data-testid={saveTestId} loading={saving}>
        Save Changes
      </Button>
    </div>
  );
}
