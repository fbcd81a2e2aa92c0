// The login page's token call (the gateway's `POST /player/growid/login/validate`). Kept alone so its field names
// can follow the gateway's without touching the rest of the client.

import { type HttpOptions, postForm } from './http.ts';

export interface TokenRequest {
  /** The hosted server's name. */
  server: string;
  growId: string;
  password: string;
  /** Create the GrowID on that server first. */
  create?: boolean;
}

/** The form fields of the token call; `create` is a checkbox, so it is absent unless set. */
export function tokenForm(r: TokenRequest): Record<string, string> {
  const fields: Record<string, string> = { server: r.server, growId: r.growId, password: r.password };
  if (r.create) fields.create = '1';
  return fields;
}

/** POSTs the login form and returns the game token of the JSON answer; throws with the page's message otherwise. */
export async function fetchToken(loginUrl: string, r: TokenRequest, opts: HttpOptions = {}): Promise<string> {
  const answer = await postForm(loginUrl, tokenForm(r), opts);
  let json: { status?: string; message?: string; token?: string } = {};
  try {
    json = JSON.parse(answer.body);
  } catch {
    throw new Error(`login answered ${answer.status} without JSON`);
  }
  if (answer.status !== 200 || json.status !== 'success' || typeof json.token !== 'string' || json.token === '') {
    throw new Error(json.message ?? `login answered ${answer.status}`);
  }
  return json.token;
}

/** The token call's URL from a server_data `loginurl` (host[:port], no scheme). */
export function loginValidateUrl(loginUrl: string): string {
  const base = /^https?:\/\//.test(loginUrl) ? loginUrl : `https://${loginUrl}`;
  return new URL('/player/growid/login/validate', base).toString();
}
