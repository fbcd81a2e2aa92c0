import {
  errorBodySchema,
  etagOf,
  HTTP_RETRIES,
  HTTP_RETRY_BASE_MS,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyCodes,
  refreshResponseSchema,
  versionedWriteCodes,
} from '@canopy/contract';
import { type SessionTokens, session } from './session.ts';

/** An answer of the api that was not a success (status 0 means the network failed). */
export class ApiError extends Error {
  readonly status: number;
  readonly statusText: string;
  /** The api's stable error code, or 'network' / 'invalid_response' from this client. */
  readonly code: string | undefined;
  constructor(status: number, statusText: string, message: string, code?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.statusText = statusText;
    this.code = code;
  }
}

/** True for a save refused because what it replaces changed since it was read (409 version_conflict, ADR 0035). */
export function isVersionConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.code === versionedWriteCodes.conflict;
}

/** Name of the event raised when the api refuses the session and it cannot be refreshed. */
export const AUTH_ERROR_EVENT = 'auth-error';
/** Raises AUTH_ERROR_EVENT; the auth provider answers it with logout. */
export const authEvents = new EventTarget();

/** Message of a network failure after all retries. */
export const NETWORK_ERROR_MESSAGE = 'Network error. Please check your connection.';

/** Anything with a zod-style safeParse (web does not depend on zod directly). */
export interface Schema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/** Facts a caller's default error text may depend on. */
export interface FailedAnswer {
  status: number;
  /** The status text, or the status number when the transport gives none (HTTP/2). */
  statusText: string;
  /** False when the body was not JSON at all (a proxy's HTML page, an empty body). */
  bodyIsJson: boolean;
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Validates the success body; a mismatch is an 'invalid_response' ApiError. */
  schema?: Schema<T>;
  /** 'bytes': the success body is returned as a Uint8Array (a texture from /cache); errors are still JSON. */
  responseType?: 'json' | 'bytes';
  /** False for public calls: no bearer header and no refresh on 401. */
  auth?: boolean;
  /** The text used when the error body has no 'error' field. */
  defaultError?: (answer: FailedAnswer) => string;
  signal?: AbortSignal;
  /**
   * False: one attempt, no retries. For checks whose answer is wanted now or not at all (the collaborator
   * Discord ID check runs again on the next keystroke anyway).
   */
  retry?: boolean;
  /**
   * Names the logical action for the api's Idempotency-Key. Mutating calls get a fresh one per call
   * when none is given; pass one only to make two calls count as the same action.
   */
  idempotencyKey?: string;
  /** A conditional write: the version of the document it replaces, sent as If-Match (ADR 0035). */
  ifMatch?: string;
}

/** Where the client reads and writes tokens (the session store in the browser). */
export interface TokenStore {
  getSessionToken(): string | null;
  readStoredTokens(): Promise<SessionTokens | null>;
  setTokens(tokens: SessionTokens): Promise<void>;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  tokens: TokenStore;
  /** Waits between retries; tests pass one that resolves at once. */
  sleep?: (ms: number) => Promise<void>;
  retries?: number;
  baseDelayMs?: number;
  /** Called when a 401 cannot be cured by a refresh. */
  onAuthError?: () => void;
  /** Serializes refreshes across tabs (Web Locks); rotation makes two parallel refreshes fatal. */
  lock?: <R>(name: string, fn: () => Promise<R>) => Promise<R>;
}

/** Delay before retry number `attempt` (0-based): base, then doubling. */
export function retryDelayMs(attempt: number, baseMs: number = HTTP_RETRY_BASE_MS): number {
  return baseMs * 2 ** attempt;
}

/** True for methods that change something: these carry an Idempotency-Key. */
export function isMutating(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';
}

/**
 * A new random key for one logical action. getRandomValues, unlike randomUUID, also works when the
 * panel is served over plain http on a LAN address (not a secure context).
 */
export function newIdempotencyKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * True for answers that can change if asked again (spec 7's retries, narrowed by ADR 0031): rate limiting,
 * and a 502, 503 or 504 that did not come from the api (a proxy's page while the api restarts). The api's own
 * answers are final and shown at once: every 4xx, and a 5xx carrying its error code (maintenance, a frozen or
 * stopped engine, an internal error), which another attempt would only repeat seconds later.
 */
export function isRetryableAnswer(status: number, fromApi: boolean): boolean {
  if (status === 429) return true;
  return status >= 502 && status <= 504 && !fromApi;
}

const statusLabel = (res: Response) => res.statusText || String(res.status);
const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

async function readJson(res: Response): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const text = await res.text();
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The api is still running the first attempt of this very action (same Idempotency-Key): waiting and
 * asking again gets its answer, so this 409 is retried like a 5xx.
 */
async function isInFlightAnswer(res: Response): Promise<boolean> {
  if (res.status !== 409) return false;
  const body = await readJson(res.clone());
  const parsed = body.ok ? errorBodySchema.safeParse(body.value) : null;
  return parsed?.success === true && parsed.data.code === idempotencyCodes.inFlight;
}

/** True when the answer is the api's own error (a JSON body with its error code), not a proxy's page. */
async function isApiAnswer(res: Response): Promise<boolean> {
  const body = await readJson(res.clone());
  if (!body.ok) return false;
  const parsed = errorBodySchema.safeParse(body.value);
  return parsed.success && parsed.data.code !== undefined;
}

/** Whether to ask again after this answer (isRetryableAnswer; an idempotent action still running is waited for). */
async function shouldRetry(res: Response): Promise<boolean> {
  if (res.ok) return false;
  if (res.status === 409) return isInFlightAnswer(res);
  if (res.status !== 429 && (res.status < 502 || res.status > 504)) return false;
  return isRetryableAnswer(res.status, await isApiAnswer(res));
}

/**
 * Creates the JSON client of spec section 7: bearer header, retries with backoff (network failures and the
 * answers isRetryableAnswer names), one refresh on 401.
 */
export function createApiClient(deps: ApiClientDeps) {
  const {
    tokens,
    retries = HTTP_RETRIES,
    baseDelayMs = HTTP_RETRY_BASE_MS,
    sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    onAuthError = () => {},
    lock = (_name, fn) => fn(),
  } = deps;
  let refreshing: Promise<boolean> | null = null;

  async function send(path: string, options: RequestOptions<unknown>, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    // One key for every attempt below and for the re-send after a refresh: the api runs the action once.
    if (options.idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey;
    if (options.ifMatch !== undefined) headers['If-Match'] = etagOf(options.ifMatch);
    const init: RequestInit = {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    };
    const attempts = options.retry === false ? 0 : retries;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= attempts;
      try {
        const res = await deps.fetch(path, init);
        if (last || !(await shouldRetry(res))) return res;
      } catch (error) {
        if (isAbort(error)) throw error;
        if (last) throw new ApiError(0, '', NETWORK_ERROR_MESSAGE, 'network');
      }
      await sleep(retryDelayMs(attempt, baseDelayMs));
    }
  }

  async function doRefresh(failedToken: string): Promise<boolean> {
    return lock('canopy-refresh', async () => {
      const stored = await tokens.readStoredTokens();
      if (!stored) return false;
      // Another tab already rotated the tokens: adopt them instead of spending a used refresh token.
      if (stored.sessionToken !== failedToken) {
        await tokens.setTokens(stored);
        return true;
      }
      const res = await send(
        '/auth/refresh',
        { method: 'POST', body: { refreshToken: stored.refreshToken }, idempotencyKey: newIdempotencyKey() },
        null,
      );
      if (!res.ok) return false;
      const body = await readJson(res);
      const parsed = body.ok ? refreshResponseSchema.safeParse(body.value) : null;
      if (!parsed?.success) return false;
      await tokens.setTokens(parsed.data);
      return true;
    });
  }

  /** One refresh at a time: concurrent 401s all wait for the same attempt. */
  function refreshOnce(failedToken: string): Promise<boolean> {
    const current = tokens.getSessionToken();
    if (current && current !== failedToken) return Promise.resolve(true);
    refreshing ??= doRefresh(failedToken)
      .catch(() => false)
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  async function toError(res: Response, options: RequestOptions<unknown>): Promise<ApiError> {
    const body = await readJson(res);
    const parsed = body.ok ? errorBodySchema.safeParse(body.value) : null;
    if (parsed?.success) return new ApiError(res.status, res.statusText, parsed.data.error, parsed.data.code);
    const answer = { status: res.status, statusText: statusLabel(res), bodyIsJson: body.ok };
    const message = options.defaultError?.(answer) ?? `Request failed: ${answer.statusText}`;
    return new ApiError(res.status, res.statusText, message);
  }

  /** Sends one call and returns its parsed body; throws ApiError on any failure. */
  async function request<T = unknown>(path: string, given: RequestOptions<T> = {}): Promise<T> {
    const options =
      isMutating(given.method ?? 'GET') && !given.idempotencyKey
        ? { ...given, idempotencyKey: newIdempotencyKey() }
        : given;
    const auth = options.auth ?? true;
    const token = auth ? tokens.getSessionToken() : null;
    let res = await send(path, options, token);
    if (res.status === 401 && token) {
      const refreshed = await refreshOnce(token);
      if (refreshed) res = await send(path, options, tokens.getSessionToken());
      if (!refreshed || res.status === 401) onAuthError();
    }
    if (!res.ok) throw await toError(res, options);

    if (res.status === 204) return undefined as T;
    if (options.responseType === 'bytes') return new Uint8Array(await res.arrayBuffer()) as T;
    const body = await readJson(res);
    if (!options.schema) return (body.ok ? body.value : undefined) as T;
    const parsed = body.ok ? options.schema.safeParse(body.value) : null;
    if (parsed?.success) return parsed.data;
    const answer = { status: res.status, statusText: statusLabel(res), bodyIsJson: false };
    const message = options.defaultError?.(answer) ?? 'The server returned an invalid response.';
    throw new ApiError(res.status, res.statusText, message, 'invalid_response');
  }

  /**
   * Refreshes the session outside a request (the socket was refused with its token). Nothing is
   * spent when the token has already been rotated since `failedToken` was used; a failed refresh
   * raises the auth error (logout), as a failed refresh on 401 does.
   */
  async function refreshSession(failedToken: string | null = tokens.getSessionToken()): Promise<boolean> {
    if (!failedToken) return false;
    const refreshed = await refreshOnce(failedToken);
    if (!refreshed) onAuthError();
    return refreshed;
  }

  return {
    request,
    refreshSession,
    /** GET with an optional response schema. */
    get: <T = unknown>(path: string, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
      request<T>(path, { ...options, method: 'GET' }),
    /** POST a JSON body. */
    post: <T = unknown>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
      request<T>(path, { ...options, method: 'POST', body }),
    /** PUT a JSON body. */
    put: <T = unknown>(path: string, body?: unknown, options: Omit<RequestOptions<T>, 'method' | 'body'> = {}) =>
      request<T>(path, { ...options, method: 'PUT', body }),
    /** DELETE with an optional JSON body. */
    delete: <T = unknown>(path: string, options: Omit<RequestOptions<T>, 'method'> = {}) =>
      request<T>(path, { ...options, method: 'DELETE' }),
  };
}

/** An api client instance. */
export type ApiClient = ReturnType<typeof createApiClient>;

/** The app's api client: same origin, tokens from the session store. */
export const api: ApiClient = createApiClient({
  fetch: (input, init) => globalThis.fetch(input, init),
  tokens: session,
  onAuthError: () => authEvents.dispatchEvent(new Event(AUTH_ERROR_EVENT)),
  lock: (name, fn) => (globalThis.navigator?.locks ? globalThis.navigator.locks.request(name, fn) : fn()),
});
