import { CDN_HOST_PATTERN, CDN_PATH_PATTERN } from '@canopy/contract/engine-constants';
import { z } from 'zod';
import { alertsEnv } from './alerts.ts';
import { backupStoreEnv, backupStoreIssues } from './backup-store.ts';
import { databaseEnv, databaseIssues } from './database.ts';
import { engineMemoryEnv, engineMemoryIssues } from './engine-memory.ts';
import { isPublicHost, loginHostSchema } from './hosts.ts';
import { httpLimitIssues, httpLimitsEnv } from './http-limits.ts';
import { LETS_ENCRYPT_DIRECTORY, loginHostIssues } from './login-host.ts';
import { metricsEnv, metricsIssues } from './metrics.ts';
import { panelTlsEnv, panelTlsIssues } from './panel-tls.ts';
import { runtimeEnv, runtimeIssues } from './runtime.ts';

// The environment variables the api reads, with their defaults and the checks across them; config.ts turns what
// they parse to into the Config the rest of the api reads.

const csv = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(/^\d{1,32}$/, 'each id must be a Discord id (digits only)')));

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

export const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    // Unset: 0.0.0.0, or 127.0.0.1 while development sign-in is on (see loadConfig).
    HOST: z.preprocess(emptyAsUndefined, z.string().optional()),
    ...panelTlsEnv,
    CANOPY_DATA_DIR: z.string().min(1).default('./data'),
    ...backupStoreEnv,
    ...runtimeEnv,
    DATABASE_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for SQLite)')
        .optional(),
    ),
    DISCORD_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
    DISCORD_API_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    DISCORD_AUTHORIZE_URL: z.url().default('https://discord.com/oauth2/authorize'),
    CANOPY_SUPER_ADMINS: csv,
    CANOPY_SESSION_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, 'must be at least 32 characters').optional(),
    ),
    CANOPY_WEB_DIST: z.string().optional(),
    CANOPY_PUBLIC_IP: z.preprocess(
      emptyAsUndefined,
      z.string().trim().refine(isPublicHost, 'must be an IPv4 address or a hostname').optional(),
    ),
    CANOPY_ITEMS_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
    // Absolute base of the links the panel hands out (setup guide); unset: the request's own origin.
    CANOPY_PUBLIC_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https?$/ })
        .transform((v) => v.replace(/\/+$/, ''))
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
    // With the webhook secret: Renew & Shop sells the operator's credit packs through Stripe Checkout.
    STRIPE_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
    // Where Stripe's API is reached (tests point it at a local stand-in); unset: https://api.stripe.com.
    CANOPY_STRIPE_API_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https?$/ })
        .transform((v) => v.replace(/\/+$/, ''))
        .default('https://api.stripe.com'),
    ),
    // What a Paid plan grants while it lasts: a storage limit of at least this many MB (0019-paid-plan.md).
    CANOPY_PAID_STORAGE_MB: z.coerce.number().int().min(1).max(1_048_576).default(1024),
    CANOPY_CREDITS_PER_CURRENCY_UNIT: z.coerce.number().int().min(1).max(1_000_000).default(100),
    // The currency of the operator's checkouts; a payment in another one is never converted from its amount.
    CANOPY_PAYMENT_CURRENCY: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO currency code, e.g. usd')
      .default('usd')
      .transform((v) => v.toLowerCase()),
    CANOPY_AI_PROVIDER: z.enum(['offline', 'gemini', 'openai']).default('offline'),
    CANOPY_AI_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    CANOPY_AI_MODEL: z.preprocess(emptyAsUndefined, z.string().max(200).optional()),
    CANOPY_AI_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
    CANOPY_AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
    CANOPY_GAME_PORTS: z
      .string()
      // 17091, the game's usual port, is the gateway's front (CANOPY_GATEWAY_UDP_PORT).
      .default('17092-17191')
      .transform((v, ctx) => {
        const m = /^(\d{1,5})-(\d{1,5})$/.exec(v.trim());
        const [from, to] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
        if (!m || from < 1024 || to > 65535 || from > to) {
          ctx.addIssue({ code: 'custom', message: 'must be a range like 17091-17190 within 1024-65535' });
          return z.NEVER;
        }
        return { from, to };
      }),
    // The login gateway (ADR 0026). Unset: on, except under NODE_ENV=test, where a test asks for it.
    CANOPY_GATEWAY: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).optional()),
    CANOPY_GATEWAY_TLS_PORT: z.coerce.number().int().min(0).max(65535).default(8443),
    CANOPY_GATEWAY_UDP_PORT: z.coerce.number().int().min(0).max(65535).default(17091),
    CANOPY_GATEWAY_TLS_CERT: z.preprocess(emptyAsUndefined, z.string().optional()),
    CANOPY_GATEWAY_TLS_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    CANOPY_LOGIN_HOST: z.preprocess(emptyAsUndefined, loginHostSchema.optional()),
    CANOPY_LOGIN_TLS_CERT: z.preprocess(emptyAsUndefined, z.string().optional()),
    CANOPY_LOGIN_TLS_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    CANOPY_LOGIN_ACME: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).default('off')),
    CANOPY_ACME_DIRECTORY_URL: z.preprocess(
      emptyAsUndefined,
      z.url({ protocol: /^https?$/ }).default(LETS_ENCRYPT_DIRECTORY),
    ),
    CANOPY_ACME_EMAIL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .trim()
        .max(254)
        .regex(/^[^\s@:,<>]+@[^\s@:,<>]+\.[^\s@:,<>]+$/, 'must be an email address')
        .optional(),
    ),
    CANOPY_ACME_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(80),
    // Where game clients fetch the game's textures (OnSuperMainStartAcceptLogon). Not trimmed: every engine gets
    // the variables exactly as set (runtime/local/engine-process.ts) and checks them with the same patterns.
    CANOPY_GAME_CDN_HOST: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(CDN_HOST_PATTERN, 'must be a host name without scheme, port or path, like ubistatic-a.akamaihd.net')
        .optional(),
    ),
    CANOPY_GAME_CDN_PATH: z.preprocess(
      emptyAsUndefined,
      z.string().regex(CDN_PATH_PATTERN, 'must be a cache path ending in /, like 0098/150726456789/cache/').optional(),
    ),
    CANOPY_START_SLOTS: z.coerce.number().int().min(0).max(100).default(1),
    CANOPY_START_SERVER_DAYS: z.coerce.number().min(0).max(3650).default(7),
    CANOPY_ENGINE_ENTRY: z.string().optional(),
    CANOPY_ENGINE_START_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15000),
    CANOPY_ENGINE_STOP_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000),
    CANOPY_ENGINE_KILL_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
    // How long a files-only engine (an offline server's file calls, ADR 0041) stays up after its last call.
    CANOPY_ENGINE_FILES_IDLE_MS: z.coerce.number().int().min(100).default(30000),
    // The api's own base as engines reach it (the item database by version, ADR 0041); unset: its listen address.
    CANOPY_INTERNAL_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https?$/ })
        .transform((v) => v.replace(/\/+$/, ''))
        .optional(),
    ),
    ...engineMemoryEnv,
    ...databaseEnv,
    CANOPY_STOP_SERVERS_ON_EXIT: z.enum(['true', 'false']).default('false'),
    // Benchmarks only (bench/console.ts): engines offer `flood`, which any console user could otherwise run.
    CANOPY_BENCH_COMMANDS: z.enum(['true', 'false']).default('false'),
    CANOPY_SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(1000).default(60000),
    // PostgreSQL: how often a replica that is not the scheduler's leader tries to become it (ADR 0036).
    CANOPY_SCHEDULER_LEADER_RETRY_MS: z.coerce.number().int().min(100).max(60000).default(3000),
    // On SIGTERM (ADR 0044): how long /readyz says 503 before the api stops taking requests (0: Kubernetes'
    // preStop sleep does that wait), then how long requests in flight get before they are cut.
    CANOPY_SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(0),
    CANOPY_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(25_000),
    CANOPY_MAX_SOCKETS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).optional()),
    ...httpLimitsEnv,
    ...metricsEnv,
    ...alertsEnv,
    CANOPY_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86400).default(60),
    CANOPY_AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
    CANOPY_AUTH_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
    CANOPY_CONFIG_WRITE_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.DISCORD_CLIENT_ID)
      ctx.addIssue({ code: 'custom', path: ['DISCORD_CLIENT_ID'], message: 'is required when NODE_ENV=production' });
    if (env.CANOPY_AI_PROVIDER === 'openai' && !env.CANOPY_AI_BASE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['CANOPY_AI_BASE_URL'],
        message: 'is required when CANOPY_AI_PROVIDER=openai',
      });
    if (env.CANOPY_AI_PROVIDER === 'gemini' && !env.CANOPY_AI_API_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['CANOPY_AI_API_KEY'],
        message: 'is required when CANOPY_AI_PROVIDER=gemini',
      });
    if (env.NODE_ENV === 'production' && env.CANOPY_BENCH_COMMANDS === 'true')
      ctx.addIssue({
        code: 'custom',
        path: ['CANOPY_BENCH_COMMANDS'],
        message: 'is for benchmarks and refused when NODE_ENV=production',
      });
    if (!env.CANOPY_GATEWAY_TLS_CERT !== !env.CANOPY_GATEWAY_TLS_KEY)
      ctx.addIssue({
        code: 'custom',
        path: [env.CANOPY_GATEWAY_TLS_CERT ? 'CANOPY_GATEWAY_TLS_KEY' : 'CANOPY_GATEWAY_TLS_CERT'],
        message: 'CANOPY_GATEWAY_TLS_CERT and CANOPY_GATEWAY_TLS_KEY are set together or not at all',
      });
    if (!env.CANOPY_GAME_CDN_HOST !== !env.CANOPY_GAME_CDN_PATH)
      ctx.addIssue({
        code: 'custom',
        path: [env.CANOPY_GAME_CDN_HOST ? 'CANOPY_GAME_CDN_PATH' : 'CANOPY_GAME_CDN_HOST'],
        message: 'CANOPY_GAME_CDN_HOST and CANOPY_GAME_CDN_PATH are set together or not at all',
      });
    for (const issue of loginHostIssues(env)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of panelTlsIssues(env)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of [...engineMemoryIssues(env), ...databaseIssues(env)])
      ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of httpLimitIssues(env)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of backupStoreIssues(env)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of runtimeIssues(env)) ctx.addIssue({ code: 'custom', ...issue });
    for (const issue of metricsIssues(env)) ctx.addIssue({ code: 'custom', ...issue });

    const udp = env.CANOPY_GATEWAY_UDP_PORT;
    if (udp !== 0 && env.CANOPY_GAME_PORTS && udp >= env.CANOPY_GAME_PORTS.from && udp <= env.CANOPY_GAME_PORTS.to)
      ctx.addIssue({
        code: 'custom',
        path: ['CANOPY_GATEWAY_UDP_PORT'],
        message: `must lie outside CANOPY_GAME_PORTS (${env.CANOPY_GAME_PORTS.from}-${env.CANOPY_GAME_PORTS.to})`,
      });
  });
