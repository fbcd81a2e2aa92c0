import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type ApiProcess, spawnApiProcess, startLine } from './api-process.ts';
import { createPgDatabase } from './databases.ts';
import { call } from './http-call.ts';
import { type K8sStandIn, startK8sStandIn } from './k8s-stand-in/index.ts';
import { freeTcpPort } from './login-host.ts';

export { call };

// Canopy as deployed on a cluster (issue 22), on one machine: the Kubernetes + Agones stand-in (real engines as
// pods), several api processes with CANOPY_RUNTIME=kubernetes on one fresh PostgreSQL database, no gateway inside
// them, and optionally the gateway as its own process. Every process shares what replicas behind one load balancer
// share: the database, the session key and the engines' control key (CANOPY_CONTROL_KEY); each has its own data
// directory.

const root = new URL('../../../../', import.meta.url).pathname;

/** One api replica: its own process, port and data directory. */
export interface Replica {
  name: string;
  /** http://127.0.0.1:<port> */
  url: string;
  dataDir: string;
  proc: ApiProcess;
  alive(): boolean;
  /** True when its log says it took the scheduler's leadership and never gave it up since. */
  leads(): boolean;
  /** Signals it and resolves once it exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The standalone gateway (`npm run gateway`'s entry) with its bound ports. */
export interface GatewayProcess {
  child: ChildProcess;
  tls: number;
  udp: number;
  output(): string;
}

export interface ApiCluster {
  stand: K8sStandIn;
  databaseUrl: string;
  /** The test's own connection to the shared database. */
  db: pg.Client;
  replicas: Replica[];
  /** Starts one more replica on the shared database and cluster. */
  addReplica(name: string, env?: Record<string, string>): Promise<Replica>;
  /** Starts the gateway as its own process on the shared database, with `env` laid over the replicas' settings. */
  startGateway(env: Record<string, string>): Promise<GatewayProcess>;
  /** The replica leading the scheduler now (throws when none or several say so). */
  leader(): Replica;
  /** Kills every process (replicas, gateway, pods), drops the database, removes the directories. */
  close(): Promise<void>;
}

const LEADERSHIP = /"msg":"scheduler leadership (taken|given up)/g;

/**
 * The stand-in, a fresh database and `replicas` api processes on them (the first started alone: it migrates the
 * database and so leads the scheduler); `env` is laid over every replica's settings.
 */
export async function startApiCluster(opts: { replicas: number; env?: Record<string, string> }): Promise<ApiCluster> {
  const stand = await startK8sStandIn({ root });
  const database = await createPgDatabase();
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const shared = {
    DATABASE_URL: database.url,
    CANOPY_SESSION_SECRET: randomBytes(32).toString('hex'),
    CANOPY_CONTROL_KEY: randomBytes(48).toString('base64url'),
    CANOPY_RUNTIME: 'kubernetes',
    KUBECONFIG: stand.kubeconfigPath,
    CANOPY_K8S_ENGINE_IMAGE: 'canopy-engine:test',
    CANOPY_K8S_START_TIMEOUT_MS: '30000',
    CANOPY_GATEWAY: 'off',
    CANOPY_SCHEDULER_LEADER_RETRY_MS: '200',
    // Development sign-in (no Discord) signs users in over HTTP; tests sign in many from one address.
    DISCORD_CLIENT_ID: '',
    DISCORD_API_URL: '',
    CANOPY_AUTH_RATE_LIMIT_PER_IP: '100000',
    CANOPY_AUTH_RATE_LIMIT_PER_ACCOUNT: '100000',
    CANOPY_HTTP_CONNECTIONS_PER_IP: '64',
    // Info: the leadership lines are what tells which replica leads (a test cannot read ctx.leader of a process).
    LOG_LEVEL: 'info',
    ...opts.env,
  };
  const dataDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };

  const replicas: Replica[] = [];
  const addReplica = async (name: string, env: Record<string, string> = {}): Promise<Replica> => {
    const port = await freeTcpPort();
    const url = `http://127.0.0.1:${port}`;
    const dir = dataDir(`canopy-cluster-${name}-`);
    // Engines in pods fetch the item database from the replica that started them: the address it listens on.
    const proc = spawnApiProcess(dir, { ...shared, PORT: String(port), CANOPY_INTERNAL_URL: url, ...env });
    children.push(proc.child);
    const started = await startLine(proc, 60_000);
    if (!started.url) throw new Error(`replica ${name} exited with ${started.code}:\n${proc.output()}`);
    const replica: Replica = {
      name,
      url,
      dataDir: dir,
      proc,
      alive: () => proc.child.exitCode === null && proc.child.signalCode === null,
      leads: () => replica.alive() && [...proc.output().matchAll(LEADERSHIP)].at(-1)?.[1] === 'taken',
      kill: async (signal = 'SIGTERM') => {
        if (!replica.alive()) return;
        const exited = new Promise((r) => proc.child.once('exit', r));
        proc.child.kill(signal);
        await exited;
      },
    };
    replicas.push(replica);
    return replica;
  };

  const db = new pg.Client({ connectionString: database.url });
  let gateway: GatewayProcess | undefined;
  const cluster: ApiCluster = {
    stand,
    databaseUrl: database.url,
    db,
    replicas,
    addReplica,
    async startGateway(env) {
      gateway = await spawnGateway(dataDir('canopy-cluster-gateway-'), { ...shared, ...env });
      children.push(gateway.child);
      return gateway;
    },
    leader() {
      const leading = replicas.filter((r) => r.leads());
      if (leading.length !== 1) throw new Error(`${leading.length} replicas lead: ${leading.map((r) => r.name)}`);
      return leading[0] as Replica;
    },
    async close() {
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }),
      );
      await stand.stop();
      await db.end().catch(() => {});
      await database.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await db.connect();
    await addReplica('A');
    for (let i = 1; i < opts.replicas; i++) await addReplica(String.fromCharCode(65 + i));
  } catch (error) {
    await cluster.close().catch(() => {});
    throw error;
  }
  return cluster;
}

/** Spawns apps/api/src/gateway/main.ts and resolves once it prints its ports. */
async function spawnGateway(dataDir: string, env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ['apps/api/src/gateway/main.ts'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', ...env, LOG_LEVEL: 'warn', CANOPY_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (d) => {
      out += d;
    });
  const ports = await new Promise<{ tls: number; udp: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no gateway start line:\n${out}`)), 30_000);
    child.stdout?.on('data', () => {
      const m = /https on port (\d+) .*udp port (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ tls: Number(m[1]), udp: Number(m[2]) });
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}):\n${out}`)));
  });
  return { child, ...ports, output: () => out };
}

/** A user signed in through the development sign-in of `url` and registered (a GrowID). */
export async function signUp(url: string, username: string): Promise<{ id: string; token: string }> {
  const approve = await fetch(
    `${url}/dev-discord/oauth2/approve?username=${username}&redirect_uri=${encodeURIComponent(`${url}/`)}`,
    { redirect: 'manual' },
  );
  const accessToken = new URLSearchParams(new URL(approve.headers.get('location') ?? '').hash.slice(1)).get(
    'access_token',
  );
  const login = await call(url, '', 'POST', '/auth/login', { accessToken });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${JSON.stringify(login.body)}`);
  const user = { id: login.body.user.id as string, token: login.body.sessionToken as string };
  const reg = await call(url, user.token, 'POST', '/register', {
    discordId: user.id,
    discordUsername: username,
    growId: username,
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${JSON.stringify(reg.body)}`);
  return user;
}

/** A new user owning a server named `name` (created over `url`'s api from a slot the database grants). */
export async function ownerOf(cluster: ApiCluster, url: string, name: string) {
  const owner = await signUp(url, name.toLowerCase());
  await cluster.db.query('UPDATE users SET available_slot = 1 WHERE id = $1', [owner.id]);
  const created = await call(url, owner.token, 'POST', `/users/${owner.id}/server`, { serverName: name });
  if (created.status !== 201)
    throw new Error(`server creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  const row = await cluster.db.query<{ id: string }>('SELECT id FROM servers WHERE name = $1', [name]);
  return { ...owner, serverId: row.rows[0]?.id as string };
}

/** The status a replica's public feed shows for a server ('missing' when it lists none of that name). */
export async function feedStatus(url: string, name: string): Promise<string> {
  const res = await call(url, '', 'GET', '/status');
  return res.body.hostedServers.find((s: { name: string }) => s.name === name)?.status ?? 'missing';
}
