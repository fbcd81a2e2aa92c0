import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp, startBackground } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createPgDatabase, type Dialect, dialects } from './databases.ts';
import { FakeDiscord } from './fake-discord.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them
export interface ApiResponse<T = any> {
  status: number;
  body: T;
}

/** A running api on its own database, with a fake Discord and a clock the test can move. */
export interface TestApi {
  url: string;
  dialect: Dialect;
  discord: FakeDiscord;
  ctx: AppContext;
  /** The api's Fastify instance, for tests that read its route table. */
  app: FastifyInstance;
  clock: { now: number };
  // biome-ignore lint/suspicious/noExplicitAny: see ApiResponse
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/** How a test request is made: a JSON body, a bearer token, extra headers, an abort signal. */
export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** One JSON request to the api at `url`; the answer's body is parsed (null when empty). */
// biome-ignore lint/suspicious/noExplicitAny: see ApiResponse
export async function requestJson<T = any>(
  url: string,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(url + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

// Each api in a test run gets its own block of game ports, so parallel test files never collide. The
// blocks stay below Linux's ephemeral range (32768+): engine tests bind game port 0, and an ephemeral port
// the kernel hands them must never be one an api's engine is about to bind.
let portBlock = 0;
function nextPortRange() {
  const base = 20000 + (process.pid % 400) * 30 + (portBlock++ % 3) * 10;
  return `${base}-${base + 9}`;
}

/**
 * Starts the real api over HTTP on a fresh SQLite file or PostgreSQL database. An env with DATABASE_URL starts
 * it on that database instead (a second replica), which its close then leaves in place.
 */
export async function startApi(dialect: Dialect, env: Record<string, string> = {}): Promise<TestApi> {
  const discord = await new FakeDiscord().start();
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-api-test-'));
  const pgDb = dialect === 'postgres' && !env.DATABASE_URL ? await createPgDatabase() : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    CANOPY_DATA_DIR: dataDir,
    CANOPY_WEB_DIST: join(dataDir, 'no-web'),
    CANOPY_GAME_PORTS: nextPortRange(),
    DISCORD_API_URL: discord.url,
    // Suites sign many users in from one address; the rate-limit tests set their own small limits.
    CANOPY_AUTH_RATE_LIMIT_PER_IP: '100000',
    CANOPY_AUTH_RATE_LIMIT_PER_ACCOUNT: '100000',
    CANOPY_CONFIG_WRITE_RATE_LIMIT: '100000',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const db = await openDatabase(config);
  const clock = { now: Date.now() };
  const { app, ctx } = await buildApp(config, db, { now: () => clock.now });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const stopBackground = await startBackground(ctx);
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    dialect,
    discord,
    ctx,
    app,
    clock,
    request: (method, path, opts) => requestJson(url, method, path, opts),
    async close() {
      await app.close();
      await stopBackground({ stopServers: true });
      await db.close();
      await discord.stop();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs a suite once per database dialect, each against its own freshly started api. */
export function describeEachDatabase(
  name: string,
  suite: (api: () => TestApi) => void,
  env: Record<string, string> = {},
) {
  for (const dialect of dialects) {
    describe(`${name} [${dialect}]`, () => {
      let api: TestApi;
      before(async () => {
        api = await startApi(dialect, env);
      });
      after(() => api.close());
      suite(() => api);
    });
  }
}
