import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Button } from './button.tsx';

export interface ModalProps {
  open: boolean;
  title: ReactNode;
  /** Called on Escape, the close button or a click on the backdrop. */
  onClose: () => void;
  children?: ReactNode;
  /** Action buttons, right-aligned under the content. */
  footer?: ReactNode;
  className?: string;
}

/**
 * An accessible modal dialog on the native <dialog> element (focus is kept inside, the page
 * behind is inert, focus returns to where it was on close).
 */
export function Modal({ open, title, onClose, children, footer, className = '' }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      previous?.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: backdrop click is a mouse convenience; Escape (onCancel) and the close button cover the keyboard
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      // Escape: let the owner decide (it may be busy), instead of the browser closing it behind React's back.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={`m-auto w-full max-w-md rounded-xl border border-line bg-surface p-0 text-ink shadow-2xl ${className}`}
    >
      <div className="flex items-start justify-between gap-4 border-line border-b px-5 py-4">
        <h2 id={titleId} className="font-semibold text-lg">
          {title}
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="-m-1 rounded p-1 text-ink-muted leading-none hover:text-ink"
        >
          ×
        </button>
      </div>
      <div className="px-5 py-4 text-sm">{children}</div>
      {footer && <div className="flex justify-end gap-2 border-line border-t px-5 py-3">{footer}</div>}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  /** Defaults to true, so it can be rendered conditionally. */
  open?: boolean;
  title: ReactNode;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** 'danger' for destructive actions (red confirm button). */
  tone?: 'primary' | 'danger';
  /** Shows a spinner on the confirm button and disables both buttons. */
  loading?: boolean;
}

/** A yes/no dialog built on Modal. */
export function ConfirmDialog({
  open = true,
  title,
  message,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  onConfirm,
  onCancel,
  tone = 'primary',
  loading = false,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      title={title}
      onClose={() => !loading && onCancel()}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={loading}>
            {cancelLabel}
          </Button>
          <Button variant={tone === 'danger' ? 'danger' : 'primary'} onClick={onConfirm} loading={loading}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {message}
    </Modal>
  );
}
