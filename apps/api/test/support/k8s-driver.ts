import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { ServerStatus } from '@canopy/contract';
import { KubeConfig } from '@kubernetes/client-node';
import type { Db } from '../../src/db/db.ts';
import { openDatabase } from '../../src/db/open.ts';
import { KubernetesDriver } from '../../src/runtime/kubernetes/driver.ts';
import { KubeApi } from '../../src/runtime/kubernetes/kube.ts';
import type { KubernetesDriverOptions } from '../../src/runtime/kubernetes/options.ts';
import type { CrashReport, HostedServerSpec } from '../../src/runtime/types.ts';
import { createPgDatabase, type Dialect } from './databases.ts';
import { type K8sStandIn, startK8sStandIn } from './k8s-stand-in/index.ts';

// The kubernetes driver's tests: the stand-in cluster (k8s-stand-in/, real engines as pods), a migrated platform
// database with the servers' rows, and drivers ("replicas") on both that record what they report.

const repoRoot = new URL('../../../../', import.meta.url).pathname;

/** One stand-in cluster and one platform database that several drivers share. */
export interface Cluster {
  stand: K8sStandIn;
  /** Opens another connection to the database (a second replica has its own pool). */
  connect(): Promise<Db>;
  db: Db;
  close(): Promise<void>;
}

export async function startCluster(dialect: Dialect = 'sqlite'): Promise<Cluster> {
  const stand = await startK8sStandIn({ root: repoRoot });
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-k8s-db-'));
  const pg = dialect === 'postgres' ? await createPgDatabase() : undefined;
  const connect = () => openDatabase({ dataDir, databaseUrl: pg?.url });
  const db = await connect();
  const extra: Db[] = [];
  return {
    stand,
    db,
    connect: async () => {
      const more = await connect();
      extra.push(more);
      return more;
    },
    async close() {
      await stand.stop();
      for (const d of [db, ...extra]) await d.close().catch(() => {});
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A describe block's cluster, started before its tests; after them the drivers it kept stop their servers and shut
 *  down, then the cluster closes. `cluster` is set once the before hook has run. */
export function clusterPerSuite(): { cluster: Cluster; drivers: Array<{ d: KubernetesDriver }> } {
  const suite = { cluster: undefined as unknown as Cluster, drivers: [] as Array<{ d: KubernetesDriver }> };
  before(async () => {
    suite.cluster = await startCluster();
  });
  after(async () => {
    for (const r of suite.drivers) await r.d.shutdown({ stopServers: true }).catch(() => {});
    await suite.cluster?.close();
  });
  return suite;
}

/** A server row (and its owner's) in the platform database, as the driver is given it. */
export async function addServer(db: Db, desired: 'running' | 'stopped' = 'stopped'): Promise<HostedServerSpec> {
  const id = randomUUID();
  const ownerId = randomUUID();
  const name = `k8s-${id.slice(0, 8)}`;
  await db.run('INSERT INTO users (id, username, created_at) VALUES (?, ?, 0)', [ownerId, name]);
  await db.run(
    `INSERT INTO servers (id, owner_id, name, name_key, game_port, control_secret, desired_state, created_at)
     VALUES (?, ?, ?, ?, ?, '', ?, 0)`,
    [id, ownerId, name, name, 20000 + Math.floor(Math.random() * 40000), desired],
  );
  return { id, name, ownerId, gamePort: 0, secret: randomBytes(16).toString('hex'), lastCrashAt: null };
}

/** The cluster's API as the driver calls it (an operator's kubectl, in tests). */
export function kubectl(cluster: Cluster): KubeApi {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(cluster.stand.kubeconfigPath);
  return new KubeApi(kubeConfig, cluster.stand.namespace);
}

/** What a driver told its listener, by kind. */
export interface Recorded {
  statuses: Map<string, ServerStatus[]>;
  crashes: { id: string; report: CrashReport }[];
  failures: { id: string; reason: string; lines: string[] }[];
  lines: Map<string, string[]>;
}

/** A driver ("replica") on the cluster, its listener recording. Leads unless told otherwise. */
export async function replica(
  cluster: Cluster,
  specs: HostedServerSpec[],
  opts: { leader?: () => boolean; db?: Db; timeouts?: KubernetesDriverOptions['timeouts'] } & Partial<
    Pick<KubernetesDriverOptions, 'filesIdleMs' | 'memoryLimitMB' | 'now' | 'actionGraceMs' | 'listWaitMs'> & {
      kubeConfig?: KubeConfig;
    }
  > = {},
): Promise<{ d: KubernetesDriver } & Recorded> {
  const db = opts.db ?? cluster.db;
  const kubeConfig = opts.kubeConfig ?? new KubeConfig();
  if (!opts.kubeConfig) kubeConfig.loadFromFile(cluster.stand.kubeconfigPath);
  const recorded: Recorded = { statuses: new Map(), crashes: [], failures: [], lines: new Map() };
  const push = <T>(map: Map<string, T[]>, id: string, value: T) => map.set(id, [...(map.get(id) ?? []), value]);
  const known = new Map(specs.map((s) => [s.id, s]));
  const lastCrash = new Map<string, number>();
  const d = new KubernetesDriver({
    cluster: {
      kubeConfig,
      namespace: cluster.stand.namespace,
      image: 'canopy-engine:test',
      workDir: '/app',
      controlPort: 8081,
      gamePort: 7777,
      volumeSize: '1Gi',
    },
    db,
    listener: {
      status: (id, s) => push(recorded.statuses, id, s.status),
      console: (id, line) => push(recorded.lines, id, line),
      crash: (id, report) => recorded.crashes.push({ id, report }),
      startFailed: (id, reason, lines) => recorded.failures.push({ id, reason, lines }),
    },
    now: opts.now ?? Date.now,
    log: { info: () => {}, warn: () => {} },
    isLeader: opts.leader ?? (() => true),
    saveLastCrash: (id, at) => {
      lastCrash.set(id, at);
      void db.run('UPDATE servers SET last_crash_at = ? WHERE id = ?', [at, id]);
    },
    lastCrashAt: async (id) => {
      const row = await db.get<{ at: number | string | null }>('SELECT last_crash_at AS at FROM servers WHERE id = ?', [
        id,
      ]);
      return row?.at === null || row?.at === undefined ? (lastCrash.get(id) ?? null) : Number(row.at);
    },
    wanted: async (id) =>
      (await db.get<{ s: string }>('SELECT desired_state AS s FROM servers WHERE id = ?', [id]))?.s === 'running',
    specOf: async (id) => known.get(id) ?? null,
    memoryLimitMB: opts.memoryLimitMB ?? (async () => 256),
    timeouts: opts.timeouts ?? { startMs: 30_000, stopMs: 5000, killMs: 2000 },
    filesIdleMs: opts.filesIdleMs ?? 60_000,
    leaderCheckMs: 100,
    actionGraceMs: opts.actionGraceMs,
    listWaitMs: opts.listWaitMs,
  });
  await d.reconcile(specs, () => false);
  return { d, ...recorded };
}

/** The statuses a driver reported for a server, repeats (a new version or player count) left out. */
export const transitions = (r: Recorded, id: string): ServerStatus[] =>
  (r.statuses.get(id) ?? []).filter((s, i, all) => i === 0 || all[i - 1] !== s);

/** Sets the server's wish (servers.desired_state), as a power action of the api does before acting. */
export const setDesired = (db: Db, id: string, desired: 'running' | 'stopped') =>
  db.run('UPDATE servers SET desired_state = ? WHERE id = ?', [desired, id]);

/** Starts a server as the api does: its wish recorded first (the leader's converge reads it), then the action. */
export async function startServer(d: KubernetesDriver, db: Db, spec: HostedServerSpec) {
  await setDesired(db, spec.id, 'running');
  await d.start(spec);
}
