import type { KubeConfig } from '@kubernetes/client-node';
import type { Db } from '../../db/db.ts';
import type { HostedServerSpec, RuntimeListener } from '../types.ts';

/** Where the driver runs engines: the cluster, its namespace and what each server's objects look like. */
export interface ClusterSettings {
  kubeConfig: KubeConfig;
  namespace: string;
  image: string;
  /** The image's working directory: the repository, where the engine's entry path starts. */
  workDir: string;
  /** The engine's container ports: its control API (reached on the pod's IP) and the game's UDP port. */
  controlPort: number;
  gamePort: number;
  volumeSize: string;
  storageClass?: string;
}

/** What the kubernetes driver is given (runtime/create-driver.ts builds it from the config and the registry). */
export interface KubernetesDriverOptions {
  cluster: ClusterSettings;
  /** Environment a server's engine gets besides its secret (the game CDN, the item database by version). */
  engineEnv?: (serverId: string) => Promise<Record<string, string>>;
  /** The platform database: the power lock's lease and the maintenance pods' last use live in the servers rows. */
  db: Db;
  listener: RuntimeListener;
  now: () => number;
  log: { info(msg: string): void; warn(msg: string): void };
  /** Whether this replica is the scheduler's leader now (ADR 0036): only it acts on crashes and converges. */
  isLeader: () => boolean;
  saveLastCrash(id: string, at: number): void;
  /** The server's last crash as stored now (another replica's leader may have recorded it). */
  lastCrashAt(id: string): Promise<number | null>;
  /** Whether the server should run now (servers.desired_state). */
  wanted(id: string): Promise<boolean>;
  /** A server this replica has not been told about (another replica created it since this one started). */
  specOf(id: string): Promise<HostedServerSpec | null>;
  /** A server's memory ceiling in MB by its owner's plan: its container's memory limit (and request). */
  memoryLimitMB?: (spec: HostedServerSpec) => Promise<number>;
  timeouts: { startMs: number; stopMs: number; killMs: number };
  /** How long a maintenance pod stays after the last file call of any replica. */
  filesIdleMs: number;
  /** How often ONLINE servers' /stats are read (stats.ts). */
  statsIntervalMs?: number;
  /** How often the driver looks whether this replica became the leader. */
  leaderCheckMs?: number;
  /** The power lock's lease duration (lease.ts). */
  leaseTtlMs?: number;
  /** A GameServer that vanishes this soon after a power action ended is the action's doing (crash.ts). */
  actionGraceMs?: number;
  /** How long reconcile (the api's start) waits for the cluster to be listed (default 10 s). */
  listWaitMs?: number;
}
