import assert from 'node:assert/strict';
import { type RunningApp, setAvailableSlots } from './app.ts';

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

/** Signs `username` in over HTTP and registers `growId` for them (as the registration screen does). */
export async function apiSignInRegistered(baseUrl: string, username: string, growId: string) {
  const session = await apiSignIn(baseUrl, username);
  const res = await apiCall(baseUrl, session.token, 'POST', '/register', {
    discordId: session.id,
    discordUsername: username,
    growId,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return session;
}

/**
 * Gives the signed-in user one server slot and creates `serverName` for them over the api; with `start`, also
 * asks for it to start (the answer is 202: the status arrives later over the socket).
 */
export async function apiCreateServer(
  app: RunningApp,
  session: { id: string; token: string },
  serverName: string,
  { start = false } = {},
) {
  setAvailableSlots(app, session.id, 1);
  const created = await apiCall(app.url, session.token, 'POST', `/users/${session.id}/server`, { serverName });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  if (!start) return;
  const started = await apiCall(app.url, session.token, 'POST', `/users/${session.id}/server/${serverName}/start`);
  assert.equal(started.status, 202, JSON.stringify(started.body));
}
