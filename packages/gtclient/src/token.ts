// The login page's calls (domain notes, "What the real client sends", step 3): the token call
// (`POST /player/growid/login/validate`, JSON `{status:"success", token, ...}` on success, the HTML page with the
// error on failure) and the saved sign-in (`POST /player/growid/checktoken`). Kept alone so their field names can
// follow the gateway's without touching the rest of the client.

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

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Visible text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed. */
function htmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
      if (e[0] === '#')
        return String.fromCodePoint(
          e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)),
        );
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The error a login page shows: the text of its first element marked as an error or alert (class, id or
 * role), else of its body; at most 300 characters.
 */
export function htmlErrorText(html: string): string {
  const marked =
    /<(\w+)\b[^>]*\b(?:class|id|role)\s*=\s*["'][^"']*\b(?:error|alert|danger)\b[^"']*["'][^>]*>([\s\S]*?)<\/\1\s*>/i.exec(
      html,
    );
  const body = /<body\b[^>]*>([\s\S]*?)(?:<\/body>|$)/i.exec(html);
  const text = htmlText(marked?.[2] ?? body?.[1] ?? html);
  return text.slice(0, 300);
}

/** The message of a refused login-page answer, JSON (`message`) or HTML (the page's error). */
function refusal(status: number, body: string): string {
  try {
    const json = JSON.parse(body) as { message?: unknown };
    if (typeof json.message === 'string' && json.message !== '') return json.message;
  } catch {
    const text = htmlErrorText(body);
    if (text !== '') return text;
  }
  return `login answered ${status}`;
}

/** The token of a JSON success answer, or null. */
function successToken(status: number, body: string): string | null {
  if (status !== 200) return null;
  try {
    const json = JSON.parse(body) as { status?: unknown; token?: unknown };
    return json.status === 'success' && typeof json.token === 'string' && json.token !== '' ? json.token : null;
  } catch {
    return null;
  }
}

/** POSTs the login form and returns the game token; throws with the page's error text (JSON or HTML) otherwise. */
export async function fetchToken(loginUrl: string, r: TokenRequest, opts: HttpOptions = {}): Promise<string> {
  const answer = await postForm(loginUrl, tokenForm(r), opts);
  const token = successToken(answer.status, answer.body);
  if (token === null) throw new Error(refusal(answer.status, answer.body));
  return token;
}

/**
 * A returning player's saved sign-in: POSTs `refreshToken` and `clientData` to `/player/growid/checktoken` and
 * returns the new token; throws with the page's error text otherwise.
 */
export async function checkToken(
  url: string,
  refreshToken: string,
  clientData = '',
  opts: HttpOptions = {},
): Promise<string> {
  const answer = await postForm(url, { refreshToken, clientData }, opts);
  const token = successToken(answer.status, answer.body);
  if (token === null) throw new Error(refusal(answer.status, answer.body));
  return token;
}

/** A login page URL from a server_data `loginurl` (host[:port], no scheme) and a path. */
function loginPageUrl(loginUrl: string, path: string): string {
  const base = /^https?:\/\//.test(loginUrl) ? loginUrl : `https://${loginUrl}`;
  return new URL(path, base).toString();
}

/** The token call's URL from a server_data `loginurl`. */
export function loginValidateUrl(loginUrl: string): string {
  return loginPageUrl(loginUrl, '/player/growid/login/validate');
}

/** The saved sign-in's URL from a server_data `loginurl`. */
export function checkTokenUrl(loginUrl: string): string {
  return loginPageUrl(loginUrl, '/player/growid/checktoken');
}
