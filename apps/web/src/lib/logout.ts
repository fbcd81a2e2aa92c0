import { api } from './api-client.ts';
import { session } from './session.ts';

/** Logs out (spec section 4): clears tokens and user now, and revokes the refresh token at the api. */
export function logout(): void {
  const refreshToken = session.getRefreshToken();
  session.signOut(true);
  // Best effort: the local session is already gone, and a stale refresh token expires on its own.
  if (refreshToken) void api.post('/auth/logout', { refreshToken }, { auth: false }).catch(() => {});
}
