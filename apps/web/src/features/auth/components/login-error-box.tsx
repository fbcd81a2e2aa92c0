import { LOGIN_ERROR_HIDE_MS } from '@canopy/contract';
import { useEffect } from 'react';

export interface LoginErrorBoxProps {
  message: string | null;
  onDismiss: () => void;
}

/** The login page's error box: dismissible, and gone by itself after LOGIN_ERROR_HIDE_MS. */
export function LoginErrorBox({ message, onDismiss }: LoginErrorBoxProps) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onDismiss, LOGIN_ERROR_HIDE_MS);
    return () => clearTimeout(timer);
  }, [message, onDismiss]);

  if (!message) return null;
  return (
    <div
      role="alert"
      data-testid="login-error"
      className="flex items-start gap-3 rounded-lg border border-red-500/40 bg-red-500/10 px-4 py-3 text-red-100 text-sm"
    >
      <p className="flex-1">{message}</p>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss"
        className="-m-1 rounded p-1 leading-none opacity-70 hover:opacity-100"
      >
        ×
      </button>
    </div>
  );
}
