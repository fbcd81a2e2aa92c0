/** Business constants of the spec (section 9 of the panel document). */
export const TOAST_LIFETIME_MS = 5000;
export const TOAST_EXIT_MS = 300;
export const TOAST_MAX = 5;

export const HTTP_RETRIES = 3;
export const HTTP_RETRY_BASE_MS = 1000;

export const SOCKET_BACKOFF_INITIAL_MS = 1000;
export const SOCKET_BACKOFF_MAX_MS = 30000;
export const SOCKET_REFRESH_RETRY_MS = 500;
/**
 * After a 1012 (the api replica restarts) the browser reconnects within this, at a random moment, so that the
 * sockets of a replica do not all land on the others in the same instant.
 */
export const SOCKET_RESTART_RETRY_MAX_MS = 1000;

export const PAGINATION_WINDOW = 5;

export const GRACE_PERIOD_DAYS = 3;
export const EXPIRY_COUNTDOWN_REFRESH_MS = 1000;
export const BAN_COUNTDOWN_REFRESH_MS = 30000;
export const LOGIN_ERROR_HIDE_MS = 7000;
export const ITEM_SEARCH_DEBOUNCE_MS = 500;

export const STORAGE_WARNING_PERCENT = 75;
export const STORAGE_DANGER_PERCENT = 90;
/** Storage limit of a new account, in MB (admin document: default 256). */
export const DEFAULT_STORAGE_LIMIT_MB = 256;

export const GROWID_MIN = 3;
export const GROWID_MAX = 20;
export const SERVER_NAME_MIN = 3;
export const SERVER_NAME_MAX = 20;

export const AVATAR_FALLBACK_COUNT = 5;

/** Lifetime of a signed session token. */
export const SESSION_TOKEN_TTL_SECONDS = 15 * 60;
/** Lifetime of a refresh token (rotated on every use). */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
