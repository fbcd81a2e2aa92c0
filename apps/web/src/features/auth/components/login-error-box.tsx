import { LOGIN_ERROR_HIDE_MS } from '@canopy/contract';
import { useEffect } from 'react';
import { Banner } from '../../../components/ui/index.ts';

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
    <Banner tone="danger" onDismiss={onDismiss} data-testid="login-error">
      {message}
    </Banner>
  );
}
