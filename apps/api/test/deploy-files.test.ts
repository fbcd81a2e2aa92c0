import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { HEALTH_PATHS } from '@canopy/contract';
import { parse } from 'yaml';
import { envSchema } from '../src/config/env-schema.ts';
import {
  dockerfileBaseImage,
  dockerfileEnv,
  dockerfileExposed,
  dockerfileFinal,
  interpolate,
  REPO_ROOT,
} from './support/deploy-files.ts';

// compose.yaml, .env.example and the Dockerfile checked against the api's configuration schema (ADR 0047): no
// container runs here, so what the files say is compared with what the api reads and listens on.

interface Service {
  image?: string;
  env_file?: string | string[];
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: { test?: string[] };
  restart?: string;
  stop_grace_period?: string;
  init?: boolean;
}

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
const composeText = read('compose.yaml');
const compose = parse(composeText) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const api = compose.services.canopy as Service;
const postgres = compose.services.postgres as Service;
const known = new Set(Object.keys(envSchema.shape));

/** .env.example's variables: those set (NAME=value) and those shown commented out (# NAME=). */
function envExample() {
  const set: Record<string, string> = {};
  const commented: string[] = [];
  for (const line of read('.env.example').split('\n')) {
    const active = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (active?.[1]) set[active[1]] = active[2] ?? '';
    const shown = /^#\s*([A-Z][A-Z0-9_]*)=/.exec(line);
    if (shown?.[1]) commented.push(shown[1]);
  }
  return { set, commented };
}

/** What an operator who followed .env.example puts in .env: its values and the required ones filled in. */
const FILLED = { POSTGRES_PASSWORD: 'c0ffee42', CANOPY_PUBLIC_IP: '203.0.113.7', DISCORD_CLIENT_ID: '123456789012' };

/** The api container's environment as compose makes it: the image's ENV, then env_file, then `environment`. */
function apiEnvironment(dotEnv: Record<string, string>) {
  const environment = Object.fromEntries(
    Object.entries(api.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), dotEnv)]),
  );
  return { ...dockerfileEnv(), ...dotEnv, ...environment };
}

/** A compose short-syntax port `host:container[/proto]` as its two sides, ranges kept as `from-to/proto`. */
function publishedPort(spec: string) {
  const [ports = '', protocol = 'tcp'] = spec.split('/');
  const [host, container] = ports.split(':');
  return { host: `${host}/${protocol}`, container: `${container}/${protocol}` };
}

describe('compose.yaml and .env.example', () => {
  test('every variable they name is one the api reads, or one compose.yaml interpolates and .env.example sets', () => {
    const { set, commented } = envExample();
    const interpolated = new Set([...composeText.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].flatMap((m) => m[1] ?? []));
    for (const name of [...Object.keys(set), ...commented])
      assert.ok(known.has(name) || interpolated.has(name), `.env.example: ${name} is not a Canopy variable`);
    for (const name of Object.keys(api.environment ?? {}))
      assert.ok(known.has(name), `compose.yaml: ${name} is not a Canopy variable`);
    for (const name of interpolated)
      assert.ok(known.has(name) || name in set, `compose.yaml interpolates ${name}, which .env.example does not set`);
    assert.deepEqual(api.env_file, '.env');
    // The secrets' file stays out of git and out of the image's build context.
    execFileSync('git', ['check-ignore', '--quiet', '.env'], { cwd: REPO_ROOT });
    assert.ok(read('.dockerignore').split('\n').includes('.env'));
  });

  test('filled in as .env.example says, the api configuration is valid, and what is missing stops it by name', () => {
    const { set } = envExample();
    const filled = apiEnvironment({ ...set, ...FILLED });
    const parsed = envSchema.safeParse(filled);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    assert.equal(parsed.data.NODE_ENV, 'production');

    // DATABASE_URL is the postgres service's: its user, database, password, and the service's name as host.
    const url = new URL(filled.DATABASE_URL ?? '');
    const pg = postgres.environment ?? {};
    assert.equal(url.hostname, 'postgres');
    assert.equal(url.port, '5432');
    assert.equal(url.username, pg.POSTGRES_USER);
    assert.equal(url.pathname, `/${pg.POSTGRES_DB}`);
    assert.equal(url.password, FILLED.POSTGRES_PASSWORD);
    assert.equal(interpolate(String(pg.POSTGRES_PASSWORD), FILLED), FILLED.POSTGRES_PASSWORD);
    // A DATABASE_URL in .env (a PostgreSQL elsewhere) wins.
    const elsewhere = 'postgres://canopy@db.example.com:5432/canopy';
    assert.equal(apiEnvironment({ ...set, ...FILLED, DATABASE_URL: elsewhere }).DATABASE_URL, elsewhere);

    // Compose refuses to start without the password or the public address; the api without a Discord app.
    assert.throws(() => apiEnvironment({ ...set, ...FILLED, POSTGRES_PASSWORD: '' }), /POSTGRES_PASSWORD/);
    assert.throws(() => apiEnvironment({ ...set, ...FILLED, CANOPY_PUBLIC_IP: '' }), /CANOPY_PUBLIC_IP/);
    const noDiscord = envSchema.safeParse(apiEnvironment({ ...set, ...FILLED, DISCORD_CLIENT_ID: '' }));
    assert.deepEqual(
      noDiscord.error?.issues.map((i) => i.path.join('.')),
      ['DISCORD_CLIENT_ID'],
    );
  });

  test('the ports published and exposed are those the configuration listens on, the same outside and in', () => {
    const config = envSchema.parse(apiEnvironment({ ...envExample().set, ...FILLED }));
    const defaults = envSchema.parse({});
    // The panel, the gateway's UDP front and the game ports are the defaults; the login host is the production 443.
    assert.equal(config.PORT, defaults.PORT);
    assert.equal(config.CANOPY_GATEWAY_UDP_PORT, defaults.CANOPY_GATEWAY_UDP_PORT);
    assert.deepEqual(config.CANOPY_GAME_PORTS, defaults.CANOPY_GAME_PORTS);
    assert.equal(config.CANOPY_GATEWAY_TLS_PORT, 443);
    const game = `${config.CANOPY_GAME_PORTS.from}-${config.CANOPY_GAME_PORTS.to}/udp`;
    const tcp = [config.PORT, config.CANOPY_GATEWAY_TLS_PORT].map((port) => `${port}/tcp`);
    const expected = [...tcp, `${config.CANOPY_GATEWAY_UDP_PORT}/udp`, game];

    const published = (api.ports ?? []).map(publishedPort);
    assert.deepEqual(published.map((p) => p.container).sort(), [...expected].sort());
    // Clients are told the port to use (the front, each engine, the login page): no remapping.
    for (const p of published) assert.equal(p.host, p.container);
    assert.deepEqual([...dockerfileExposed()].sort(), [...expected].sort());
    assert.equal(published.length, new Set(published.map((p) => p.container)).size, 'each port is published once');
  });

  test('the api is checked on its probes, waits for a healthy PostgreSQL and has time to stop in order', () => {
    const probes: string[] = Object.values(HEALTH_PATHS);
    const check = api.healthcheck?.test ?? [];
    assert.deepEqual(check.slice(0, 3), ['CMD', 'node', 'scripts/image/healthcheck.ts']);
    assert.ok(probes.includes(check[3] ?? ''), `compose's health check probes ${check[3]}`);
    const image = JSON.parse(dockerfileFinal('HEALTHCHECK')?.replace(/^.*?CMD\s+/, '') ?? '[]') as string[];
    assert.deepEqual(image.slice(0, 2), ['node', 'scripts/image/healthcheck.ts']);
    assert.ok(probes.includes(image[2] ?? ''), `the image's health check probes ${image[2]}`);
    assert.deepEqual(JSON.parse(dockerfileFinal('CMD') ?? '[]'), ['node', 'apps/api/src/main.ts']);

    assert.equal(api.depends_on?.postgres?.condition, 'service_healthy');
    assert.ok(postgres.healthcheck?.test?.includes('pg_isready'));
    assert.match(postgres.image ?? '', /^postgres:\d+\.\d+/, 'PostgreSQL pinned to a minor version');
    for (const service of [api, postgres]) assert.equal(service.restart, 'unless-stopped');
    assert.equal(api.init, true);
    // Engines stop in parallel on SIGTERM (CANOPY_STOP_SERVERS_ON_EXIT): their stop and kill timeouts must fit.
    const config = envSchema.parse(apiEnvironment({ ...envExample().set, ...FILLED }));
    assert.equal(config.CANOPY_STOP_SERVERS_ON_EXIT, 'true');
    const grace = Number(/^(\d+)s$/.exec(api.stop_grace_period ?? '')?.[1]);
    assert.ok(grace * 1000 > config.CANOPY_ENGINE_STOP_TIMEOUT_MS + config.CANOPY_ENGINE_KILL_TIMEOUT_MS);
  });

  test("data and backups live on named volumes under the image's data directory", () => {
    const dataDir = dockerfileEnv().CANOPY_DATA_DIR;
    assert.equal(dataDir, '/data');
    assert.deepEqual(api.volumes, [`data:${dataDir}`, `backups:${dataDir}/backups`]);
    assert.deepEqual(postgres.volumes, ['postgres:/var/lib/postgresql/data']);
    assert.deepEqual(Object.keys(compose.volumes).sort(), ['backups', 'data', 'postgres']);
  });
});

describe('Dockerfile', () => {
  test("its Node is the repository's node dev dependency, on which the tests run", () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string }> };
    const node = lock.packages['node_modules/node']?.version;
    assert.equal(dockerfileBaseImage(), `node:${node}-bookworm-slim`);
  });

  test('the final image runs as uid 1000 from /app with the production environment', () => {
    assert.equal(dockerfileFinal('USER'), '1000:1000');
    assert.equal(dockerfileFinal('WORKDIR'), '/app');
    const env = dockerfileEnv();
    assert.equal(env.NODE_ENV, 'production');
    assert.equal(env.HOST, '0.0.0.0');
    // /app is the kubernetes driver's CANOPY_K8S_ENGINE_WORKDIR default: the engine pods run this image.
    assert.equal(envSchema.parse({}).CANOPY_K8S_ENGINE_WORKDIR, '/app');
  });
});
