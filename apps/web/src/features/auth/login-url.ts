import type { AuthConfig } from '@canopy/contract';

/** What the OAuth return left in the URL fragment; `state` is what the provider echoed (null: none). */
export type AuthFragment =
  | { kind: 'token'; accessToken: string; state: string | null }
  | { kind: 'error'; description: string; state: string | null }
  | { kind: 'none' };

/** Reads '#access_token=…' or '#error_description=…' and their '&state=…' (implicit grant return, spec 2.3). */
export function readAuthFragment(hash: string): AuthFragment {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const state = params.get('state');
  // URLSearchParams already decodes percent escapes and '+' as space.
  const description = params.get('error_description') ?? (params.get('error') || null);
  if (description !== null) return { kind: 'error', description, state };
  const accessToken = params.get('access_token');
  if (accessToken) return { kind: 'token', accessToken, state };
  return { kind: 'none' };
}

/** The provider's authorize link: implicit grant back to the site origin (spec section 7), bound to `state`. */
export function buildAuthorizeUrl(config: AuthConfig, origin: string, state: string): string {
  const separator = config.authorizeUrl.includes('?') ? '&' : '?';
  // Scopes are joined with %20 rather than '+', the form the provider documents.
  const scope = config.scopes.map(encodeURIComponent).join('%20');
  return (
    `${config.authorizeUrl}${separator}client_id=${encodeURIComponent(config.clientId)}` +
    `&response_type=token&redirect_uri=${encodeURIComponent(origin)}&scope=${scope}&state=${encodeURIComponent(state)}`
  );
}

/** A same-site path to return to after sign-in, or null when the value is absent or unsafe. */
export function safeRedirectTarget(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value === '/') return null;
  // '//host' and '/\host' are read by browsers as another origin.
  if (value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
