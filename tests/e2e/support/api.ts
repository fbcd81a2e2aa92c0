/** Signs a development user in over HTTP (the same calls the browser makes) and returns the session. */
export async function apiSignIn(baseUrl: string, username: string) {
  const approve = await fetch(
    `${baseUrl}/dev-discord/oauth2/approve?username=${username}&redirect_uri=${encodeURIComponent(`${baseUrl}/`)}`,
    { redirect: 'manual' },
  );
  const fragment = new URLSearchParams(new URL(approve.headers.get('location') ?? '').hash.slice(1));
  const res = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accessToken: fragment.get('access_token') }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  const body = (await res.json()) as { sessionToken: string; user: { id: string } };
  return { token: body.sessionToken, id: body.user.id };
}

/** Calls the api with a session token and returns status and JSON body. */
export async function apiCall(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
