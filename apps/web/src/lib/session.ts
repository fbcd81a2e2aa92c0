import { type LoginResponse, type RefreshResponse, type SessionUser, sessionUserSchema } from '@canopy/contract';
import { useSyncExternalStore } from 'react';
import { browserSecureStorage, KeySetupError, type SecureStorage } from './secure-storage.ts';

/** What the app knows about the signed-in person. */
export interface SessionState {
  /** 'restoring' until the stored session has been read once. */
  status: 'restoring' | 'ready';
  user: SessionUser | null;
  /** True after the Logout button, so the guard does not remember the page for the next sign-in. */
  signedOutByUser: boolean;
  /** The spec's key-setup message when the encrypted store could not be used. */
  storageError: string | null;
}

/** The two tokens of a session. */
export interface SessionTokens {
  sessionToken: string;
  refreshToken: string;
}

const KEYS = { sessionToken: 'session-token', refreshToken: 'refresh-token', user: 'user' } as const;

/** Creates a session store over an encrypted storage (injected so tests can use a fake). */
export function createSessionStore(getStorage: () => SecureStorage) {
  let state: SessionState = { status: 'restoring', user: null, signedOutByUser: false, storageError: null };
  // The session token is kept in memory so every request can read it synchronously.
  let sessionToken: string | null = null;
  // Kept for logout, which revokes it at the api after the storage has been cleared.
  let refreshToken: string | null = null;
  // Bumped by signIn/signOut so a slow restore() cannot overwrite a newer sign-in or logout.
  let generation = 0;
  const listeners = new Set<() => void>();

  const setState = (next: Partial<SessionState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  };
  const errorText = (error: unknown) => (error instanceof KeySetupError ? error.message : null);

  const clearStored = () => {
    try {
      const storage = getStorage();
      for (const key of Object.values(KEYS)) storage.removeItem(key);
    } catch {
      // Nothing was stored if the storage itself is unavailable.
    }
  };

  async function readStored(): Promise<{ tokens: SessionTokens; user: SessionUser } | null> {
    const storage = getStorage();
    const [token, refresh, userText] = await Promise.all([
      storage.getItem(KEYS.sessionToken),
      storage.getItem(KEYS.refreshToken),
      storage.getItem(KEYS.user),
    ]);
    if (!token || !refresh || !userText) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(userText);
    } catch {
      return null;
    }
    const user = sessionUserSchema.safeParse(parsed);
    return user.success ? { tokens: { sessionToken: token, refreshToken: refresh }, user: user.data } : null;
  }

  return {
    /** Subscribes to state changes (useSyncExternalStore contract). */
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The current state snapshot. */
    getState: () => state,
    /** The session token of the signed-in user, if any. */
    getSessionToken: () => sessionToken,
    /** The refresh token as last read or written by this tab. */
    getRefreshToken: () => refreshToken,

    /** Loads the stored session; missing or invalid data logs the user out. */
    async restore(): Promise<void> {
      const started = generation;
      try {
        const stored = await readStored();
        if (generation !== started) return;
        if (!stored) {
          clearStored();
          sessionToken = null;
          refreshToken = null;
          setState({ status: 'ready', user: null });
          return;
        }
        sessionToken = stored.tokens.sessionToken;
        refreshToken = stored.tokens.refreshToken;
        setState({ status: 'ready', user: stored.user, signedOutByUser: false });
      } catch (error) {
        if (generation !== started) return;
        clearStored();
        sessionToken = null;
        refreshToken = null;
        setState({ status: 'ready', user: null, storageError: errorText(error) });
      }
    },

    /** Stores the session answered by POST /auth/login. Throws KeySetupError when storage fails. */
    async signIn(login: LoginResponse): Promise<void> {
      const mine = ++generation;
      const storage = getStorage();
      await Promise.all([
        storage.setItem(KEYS.sessionToken, login.sessionToken),
        storage.setItem(KEYS.refreshToken, login.refreshToken),
        storage.setItem(KEYS.user, JSON.stringify(login.user)),
      ]);
      if (generation !== mine) return;
      sessionToken = login.sessionToken;
      refreshToken = login.refreshToken;
      setState({ status: 'ready', user: login.user, signedOutByUser: false, storageError: null });
    },

    /** The tokens as stored now; another tab may have rotated them since this tab read them. */
    async readStoredTokens(): Promise<SessionTokens | null> {
      const stored = await readStored();
      return stored?.tokens ?? null;
    },

    /** Keeps the rotated tokens answered by POST /auth/refresh. */
    async setTokens(tokens: RefreshResponse): Promise<void> {
      sessionToken = tokens.sessionToken;
      refreshToken = tokens.refreshToken;
      const storage = getStorage();
      await Promise.all([
        storage.setItem(KEYS.sessionToken, tokens.sessionToken),
        storage.setItem(KEYS.refreshToken, tokens.refreshToken),
      ]);
    },

    /** Clears tokens and user; byUser tells a Logout press from an expired session. */
    signOut(byUser: boolean): void {
      generation++;
      sessionToken = null;
      refreshToken = null;
      clearStored();
      setState({ status: 'ready', user: null, signedOutByUser: byUser });
    },

    /** Forgets a storage error once it has been shown. */
    clearStorageError(): void {
      if (state.storageError) setState({ storageError: null });
    },
  };
}

/** A session store instance. */
export type SessionStore = ReturnType<typeof createSessionStore>;

let browserStorage: SecureStorage | null = null;

/** The app's session store, backed by the browser's encrypted localStorage. */
export const session: SessionStore = createSessionStore(() => {
  browserStorage ??= browserSecureStorage();
  return browserStorage;
});

/** The current session state, re-rendering on change. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState);
}
