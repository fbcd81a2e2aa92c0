import { messages } from '@canopy/contract';
import { Banner } from '../../../components/ui/index.ts';

/**
 * Plain HTTP on anything but this machine: browsers call that an insecure context (no `crypto.subtle`). Sign-in
 * still works (secure-storage.ts falls back to @noble/ciphers), but tokens cross the network readable.
 */
export function isPlainHttpOnNetwork(protocol: string, isSecureContext: boolean): boolean {
  return protocol === 'http:' && !isSecureContext;
}

/** The login page's note that the connection is not encrypted and HTTPS should be configured. */
export function InsecureConnectionNote() {
  if (!isPlainHttpOnNetwork(window.location.protocol, window.isSecureContext)) return null;
  return (
    <Banner tone="warning" title="Connection not encrypted" data-testid="insecure-connection">
      {messages.insecureConnection}
    </Banner>
  );
}
