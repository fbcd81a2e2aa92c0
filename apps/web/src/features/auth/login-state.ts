import type { StorageArea } from '../../lib/secure-storage.ts';

// Login CSRF: the provider returns to '/#access_token=…' and anyone can craft such a link with their own
// token. The OAuth `state` ties the return to the tab that clicked Login: a random value kept in that tab's
// sessionStorage, sent in the authorize link, echoed back unchanged, compared here.
const STATE_KEY = 'canopy.login-state';
const STATE_BYTES = 16;

/** A fresh random state for one sign-in attempt (32 hex digits). */
export function newLoginState(randomBytes: (b: Uint8Array<ArrayBuffer>) => Uint8Array<ArrayBuffer>): string {
  return Array.from(randomBytes(new Uint8Array(STATE_BYTES)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Keeps the state of the sign-in this tab is starting (the Login link's click). */
export function rememberLoginState(storage: StorageArea, state: string): void {
  storage.setItem(STATE_KEY, state);
}

/**
 * Whether a return's `state` is the one this tab sent. The kept state is used up either way, so a
 * return cannot be replayed, and a return without a kept state (another browser, another tab) fails.
 */
export function takeLoginState(storage: StorageArea, returned: string | null): boolean {
  const expected = storage.getItem(STATE_KEY);
  storage.removeItem(STATE_KEY);
  return expected !== null && expected.length > 0 && returned === expected;
}
