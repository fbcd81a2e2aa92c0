import { loginResponseSchema, messages } from '@canopy/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { session } from '../../../lib/session.ts';

/** POST /auth/login: trades the provider's access token for a session and stores it. */
export async function loginWithAccessToken(accessToken: string): Promise<void> {
  const login = await api.post(
    '/auth/login',
    { accessToken },
    {
      auth: false,
      schema: loginResponseSchema,
      // Spec section 8: a readable answer without an error field names the status text; anything
      // unreadable (a proxy's HTML page, a body of the wrong shape) is an "invalid response".
      defaultError: (a) =>
        a.bodyIsJson ? messages.loginFailed(a.statusText) : messages.loginFailedInvalidResponse(a.status),
    },
  );
  await session.signIn(login);
}

/** The sign-in exchange as a mutation. */
export function useLogin() {
  return useMutation({ mutationFn: loginWithAccessToken });
}
