import { join, resolve } from 'node:path';
import { type AlertsConfig, alertsOf } from './config/alerts.ts';
import { type BackupStoreConfig, backupStoreOf } from './config/backup-store.ts';
import { databaseTimeouts } from './config/database.ts';
import { type EngineMemoryConfig, engineMemory } from './config/engine-memory.ts';
import { envSchema } from './config/env-schema.ts';
import { detectPublicIp } from './config/hosts.ts';
import { type HandshakeLimits, type HttpLimits, handshakeLimitsOf, httpLimitsOf } from './config/http-limits.ts';
import type { LoginHostConfig } from './config/login-host.ts';
import { type MetricsConfig, metricsOf } from './config/metrics.ts';
import { type PanelTlsConfig, panelTlsOf } from './config/panel-tls.ts';
import { type RuntimeConfig, runtimeOf } from './config/runtime.ts';
import type { DatabaseTimeouts } from './db/db.ts';

export const DISCORD_API_DEFAULT = 'https://discord.com/api/v10';

export interface Config {
  port: number;
  host: string;
  /** Whether HOST was set; without it, development sign-in keeps the panel on this machine. */
  hostExplicit: boolean;
  /** The panel's certificate (CANOPY_TLS_CERT/KEY, read at start by main.ts); unset: plain HTTP. */
  tls?: PanelTlsConfig;
  dataDir: string;
  /** Where accounts' backups are kept: the data directory or an S3-compatible bucket (config/backup-store.ts). */
  backupStore: BackupStoreConfig;
  /** Where hosted servers run: this machine or a Kubernetes cluster (config/runtime.ts, ADR 0043). */
  runtime: RuntimeConfig;
  /** The host control key (CANOPY_CONTROL_KEY, shared by replicas); unset: `<data-dir>/control-key` (ADR 0011). */
  controlKey?: string;
  databaseUrl?: string;
  /** How long a database call may take before the api gives up on it and answers 503 (config/database.ts). */
  database: DatabaseTimeouts;
  discordClientId?: string;
  /** Explicit Discord API base; when unset, Discord's own (or the development stand-in). */
  discordApiUrl?: string;
  discordAuthorizeUrl: string;
  superAdmins: string[];
  sessionSecret?: string;
  webDist: string;
  /** The address GET /ip tells game clients (CANOPY_PUBLIC_IP, else detected at start). */
  publicIp: string;
  /** The operator's item database (CANOPY_ITEMS_DIR, else <dataDir>/item-database); see items/item-database-dir.ts. */
  itemsDir: string;
  /** CANOPY_PUBLIC_URL without a trailing slash; unset: links are built from the request's origin. */
  publicUrl?: string;
  /** Payments: the Stripe webhook signing secret; unset: the webhook answers 503. */
  stripeWebhookSecret?: string;
  /** Payments: Stripe's secret API key, to create Checkout Sessions; unset: credits are not sold in the panel. */
  stripeSecretKey?: string;
  /** Stripe's API base (CANOPY_STRIPE_API_URL), without a trailing slash. */
  stripeApiUrl: string;
  /** A Paid plan's storage limit in MB (at least; an account's own higher limit stays). */
  paidStorageMB: number;
  /** Credits per whole currency unit paid (100: one dollar buys 100 credits). */
  creditsPerCurrencyUnit: number;
  /** The checkouts' currency (lower-case ISO code): only its amounts are turned into credits. */
  paymentCurrency: string;
  /** SkyHelper's language model: the built-in offline helper, Google Gemini or an OpenAI-compatible endpoint. */
  ai: {
    provider: 'offline' | 'gemini' | 'openai';
    apiKey?: string;
    model?: string;
    baseUrl?: string;
    timeoutMs: number;
  };
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: string;
  gamePorts: { from: number; to: number };
  startSlots: number;
  startServerDays: number;
  /** The engine program each hosted server runs (a .ts file run by this Node). */
  engineEntry: string;
  engineStartTimeoutMs: number;
  engineStopTimeoutMs: number;
  engineKillTimeoutMs: number;
  /** How long a files-only engine stays up after its last call (CANOPY_ENGINE_FILES_IDLE_MS, ADR 0041). */
  engineFilesIdleMs: number;
  /** The api's base URL as engines reach it (CANOPY_INTERNAL_URL); unset: derived from where it listens. */
  internalUrl?: string;
  /** Each engine's memory ceiling by its owner's plan (config/engine-memory.ts, ADR 0029). */
  engineMemory: EngineMemoryConfig;
  /** Stop every engine when the api exits; by default they keep running and are re-attached. */
  stopServersOnExit: boolean;
  /** Engines are started with the benchmark-only console commands (never in production). */
  benchCommands: boolean;
  schedulerIntervalMs: number;
  /** PostgreSQL: how often a follower replica tries for the scheduler's leadership (scheduler/leader.ts). */
  schedulerLeaderRetryMs: number;
  /** SIGTERM (lifecycle/shutdown.ts, ADR 0044): not ready for delayMs while still serving, then graceMs to finish. */
  shutdown: { delayMs: number; graceMs: number };
  /** Most WebSockets held at once; unset: half the process's descriptor limit (ws/socket-limits.ts). */
  maxSockets?: number;
  /** Timeouts and the per-address connection cap of every HTTP(S) server (config/http-limits.ts, ADR 0032). */
  http: HttpLimits;
  /** GET /metrics (CANOPY_METRICS_TOKEN/PORT/HOST, ADR 0045); undefined: metrics are off. */
  metrics?: MetricsConfig;
  /** Discord alerts' delivery (CANOPY_ALERT_*, ADR 0049). */
  alerts: AlertsConfig;
  /** The built-in stand-in for Discord: on only without a Discord app and outside production. */
  devIdentityProvider: boolean;
  /** Requests allowed per window on /auth/* and /register, per client IP and per account (user or token). */
  authRateLimit: { windowMs: number; perIp: number; perAccount: number };
  /** Configuration writes per user (all config write routes together) per window (CANOPY_CONFIG_WRITE_RATE_LIMIT). */
  configWriteRateLimit: { max: number; windowMs: number };
  /**
   * The CDN game clients are told to fetch textures from (CANOPY_GAME_CDN_HOST/PATH); unset: the game's own. Engines
   * read the same variables, passed through by runtime/local/engine-process.ts; the api checks them at start.
   */
  gameCdn?: { host: string; path: string };
  /** The login gateway (ADR 0026); ports 0 pick free ones (tests read the real ones from the running gateway). */
  gateway: {
    enabled: boolean;
    tlsPort: number;
    udpPort: number;
    /** PEM files; unset: a self-signed pair generated once into the data directory. */
    tls?: { certFile: string; keyFile: string };
    /** The login page's own host (CANOPY_LOGIN_HOST, ADR 0027); unset: loginurl names the Host header asked for. */
    login?: LoginHostConfig;
    /** New TLS connections admitted per address (ADR 0032). */
    handshakes: HandshakeLimits;
  };
}

/** Reads and checks the environment; throws one message listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const devIdentityProvider = !e.DISCORD_CLIENT_ID && e.NODE_ENV !== 'production';
  // Development sign-in lets anyone sign in as anyone: it stays on this machine unless HOST says otherwise.
  const host = e.HOST ?? (devIdentityProvider ? '127.0.0.1' : '0.0.0.0');
  return {
    port: e.PORT,
    host,
    hostExplicit: e.HOST !== undefined,
    tls: panelTlsOf(e),
    dataDir: resolve(e.CANOPY_DATA_DIR),
    backupStore: backupStoreOf(e),
    runtime: runtimeOf(e),
    controlKey: e.CANOPY_CONTROL_KEY,
    databaseUrl: e.DATABASE_URL,
    database: databaseTimeouts(e),
    discordClientId: e.DISCORD_CLIENT_ID,
    discordApiUrl: e.DISCORD_API_URL?.replace(/\/+$/, ''),
    discordAuthorizeUrl: e.DISCORD_AUTHORIZE_URL,
    superAdmins: e.CANOPY_SUPER_ADMINS,
    sessionSecret: e.CANOPY_SESSION_SECRET,
    webDist: resolve(e.CANOPY_WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    publicIp: e.CANOPY_PUBLIC_IP ?? detectPublicIp(),
    itemsDir: resolve(e.CANOPY_ITEMS_DIR ?? join(e.CANOPY_DATA_DIR, 'item-database')),
    publicUrl: e.CANOPY_PUBLIC_URL,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeApiUrl: e.CANOPY_STRIPE_API_URL,
    paidStorageMB: e.CANOPY_PAID_STORAGE_MB,
    creditsPerCurrencyUnit: e.CANOPY_CREDITS_PER_CURRENCY_UNIT,
    paymentCurrency: e.CANOPY_PAYMENT_CURRENCY,
    ai: {
      provider: e.CANOPY_AI_PROVIDER,
      apiKey: e.CANOPY_AI_API_KEY,
      model: e.CANOPY_AI_MODEL,
      baseUrl: e.CANOPY_AI_BASE_URL?.replace(/\/+$/, ''),
      timeoutMs: e.CANOPY_AI_TIMEOUT_MS,
    },
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    gamePorts: e.CANOPY_GAME_PORTS,
    startSlots: e.CANOPY_START_SLOTS,
    startServerDays: e.CANOPY_START_SERVER_DAYS,
    engineEntry: resolve(
      e.CANOPY_ENGINE_ENTRY ?? new URL('../../../packages/engine/src/main.ts', import.meta.url).pathname,
    ),
    engineStartTimeoutMs: e.CANOPY_ENGINE_START_TIMEOUT_MS,
    engineStopTimeoutMs: e.CANOPY_ENGINE_STOP_TIMEOUT_MS,
    engineKillTimeoutMs: e.CANOPY_ENGINE_KILL_TIMEOUT_MS,
    engineFilesIdleMs: e.CANOPY_ENGINE_FILES_IDLE_MS,
    internalUrl: e.CANOPY_INTERNAL_URL,
    engineMemory: engineMemory(e),
    stopServersOnExit: e.CANOPY_STOP_SERVERS_ON_EXIT === 'true',
    benchCommands: e.CANOPY_BENCH_COMMANDS === 'true',
    schedulerIntervalMs: e.CANOPY_SCHEDULER_INTERVAL_MS,
    schedulerLeaderRetryMs: e.CANOPY_SCHEDULER_LEADER_RETRY_MS,
    shutdown: { delayMs: e.CANOPY_SHUTDOWN_DELAY_MS, graceMs: e.CANOPY_SHUTDOWN_GRACE_MS },
    maxSockets: e.CANOPY_MAX_SOCKETS,
    http: httpLimitsOf(e),
    metrics: metricsOf(e, host),
    alerts: alertsOf(e),
    devIdentityProvider,
    authRateLimit: {
      windowMs: e.CANOPY_RATE_LIMIT_WINDOW_SECONDS * 1000,
      perIp: e.CANOPY_AUTH_RATE_LIMIT_PER_IP,
      perAccount: e.CANOPY_AUTH_RATE_LIMIT_PER_ACCOUNT,
    },
    configWriteRateLimit: {
      max: e.CANOPY_CONFIG_WRITE_RATE_LIMIT,
      windowMs: e.CANOPY_RATE_LIMIT_WINDOW_SECONDS * 1000,
    },
    gameCdn:
      e.CANOPY_GAME_CDN_HOST && e.CANOPY_GAME_CDN_PATH
        ? { host: e.CANOPY_GAME_CDN_HOST, path: e.CANOPY_GAME_CDN_PATH }
        : undefined,
    gateway: {
      enabled: (e.CANOPY_GATEWAY ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
      tlsPort: e.CANOPY_GATEWAY_TLS_PORT,
      udpPort: e.CANOPY_GATEWAY_UDP_PORT,
      tls:
        e.CANOPY_GATEWAY_TLS_CERT && e.CANOPY_GATEWAY_TLS_KEY
          ? { certFile: resolve(e.CANOPY_GATEWAY_TLS_CERT), keyFile: resolve(e.CANOPY_GATEWAY_TLS_KEY) }
          : undefined,
      login: e.CANOPY_LOGIN_HOST && {
        name: e.CANOPY_LOGIN_HOST.name,
        port: e.CANOPY_LOGIN_HOST.port,
        tls:
          e.CANOPY_LOGIN_TLS_CERT && e.CANOPY_LOGIN_TLS_KEY
            ? { certFile: resolve(e.CANOPY_LOGIN_TLS_CERT), keyFile: resolve(e.CANOPY_LOGIN_TLS_KEY) }
            : undefined,
        acme:
          e.CANOPY_LOGIN_ACME === 'on'
            ? {
                directoryUrl: e.CANOPY_ACME_DIRECTORY_URL,
                email: e.CANOPY_ACME_EMAIL,
                httpPort: e.CANOPY_ACME_HTTP_PORT,
              }
            : undefined,
      },
      handshakes: handshakeLimitsOf(e),
    },
  };
}

export { detectPublicIp };
