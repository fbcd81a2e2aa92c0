import type { ServerStatus } from '@canopy/contract';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { gatewayMetrics } from './gateway-metrics.ts';

// The api's Prometheus metrics (ADR 0045). One registry per app (tests run several in one process), every name
// prefixed canopy_, labels from small fixed sets only: a route's pattern, never its URL; never a user or server id.

/** Plain counters the console fan-out adds to once per frame and socket; read only when scraped. */
export interface ConsoleTally {
  delivered: number;
  dropped: number;
}

/** What the gauges read when scraped: the registry's view of the hosted servers, the open sockets. */
export interface ScrapeSources {
  servers?: () => Iterable<{ status: ServerStatus; players: number }>;
  sockets?: () => number;
}

const STATUSES: ServerStatus[] = ['ONLINE', 'OFFLINE', 'STARTING', 'STOPPING', 'RESTARTING', 'UNKNOWN'];
const LAUNCHING = new Set<ServerStatus | undefined>(['STARTING', 'RESTARTING']);
/** Seconds: requests answer in milliseconds, a backup or a storage pass may take minutes. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300];
const BACKUP_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 600];

/** Every metric the api exports, and the few recorders its features call. */
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Creates the api's registry and metrics. `defaults`: also the process's own (event-loop delay, CPU, memory,
 * descriptors), which sample continuously; off while nobody can scrape them.
 */
export function createMetrics({ defaults }: { defaults: boolean }) {
  const registry = new Registry();
  const registers = [registry];
  if (defaults) collectDefaultMetrics({ register: registry });
  const consoleLines: ConsoleTally = { delivered: 0, dropped: 0 };
  const sources: ScrapeSources = {};

  const http = new Histogram({
    name: 'canopy_http_request_duration_seconds',
    help: 'HTTP requests to the panel by method, route pattern and status class, and how long they took.',
    labelNames: ['method', 'route', 'status_class'],
    buckets: HTTP_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'canopy_websockets_open',
    help: 'Signed-in WebSockets open on this replica.',
    registers,
    collect() {
      this.set(sources.sockets?.() ?? 0);
    },
  });
  tallied(
    'canopy_console_lines_delivered_total',
    'Console lines sent to browsers (one per line and socket).',
    () => consoleLines.delivered,
  );
  tallied(
    'canopy_console_lines_dropped_total',
    'Console lines a slow browser missed (one per line and socket).',
    () => consoleLines.dropped,
  );
  const players = new Gauge({
    name: 'canopy_players_online',
    help: 'Players on the hosted servers, as this replica sees them.',
    registers,
  });
  new Gauge({
    name: 'canopy_servers',
    help: 'Hosted servers by status, as this replica sees them.',
    labelNames: ['status'],
    registers,
    collect() {
      const counts = new Map<ServerStatus, number>(STATUSES.map((s) => [s, 0]));
      let online = 0;
      for (const s of sources.servers?.() ?? []) {
        counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
        online += s.players;
      }
      for (const [status, n] of counts) this.set({ status }, n);
      players.set(online);
    },
  });
  const starts = new Counter({
    name: 'canopy_engine_starts_total',
    help: 'Engines launched (a start, a restart, a crash restart).',
    registers,
  });
  const startFailures = new Counter({
    name: 'canopy_engine_start_failures_total',
    help: 'Engine starts that did not get ready.',
    registers,
  });
  const crashes = new Counter({
    name: 'canopy_engine_crashes_total',
    help: 'Engines that ended unexpectedly, by kind (exit: a crash; memory: over its memory ceiling).',
    labelNames: ['kind'],
    registers,
  });
  const schedulerRuns = new Counter({
    name: 'canopy_scheduler_runs_total',
    // `task`, not `job`: Prometheus's own target label is `job`, and would rename ours to exported_job.
    help: 'Scheduler job runs by task and outcome.',
    labelNames: ['task', 'outcome'],
    registers,
  });
  const schedulerDuration = new Histogram({
    name: 'canopy_scheduler_run_duration_seconds',
    help: 'How long each scheduler job run took, by task.',
    labelNames: ['task'],
    buckets: JOB_BUCKETS,
    registers,
  });
  const backupDuration = new Histogram({
    name: 'canopy_backup_duration_seconds',
    help: 'Backups created and restored, and how long each took.',
    labelNames: ['action'],
    buckets: BACKUP_BUCKETS,
    registers,
  });
  const backupFailures = new Counter({
    name: 'canopy_backup_failures_total',
    help: 'Backup creates and restores that failed (not refusals such as a full quota).',
    labelNames: ['action'],
    registers,
  });
  const webhooks = new Counter({
    name: 'canopy_payment_webhooks_total',
    help: 'Stripe webhook calls by outcome.',
    labelNames: ['outcome'],
    registers,
  });
  for (const kind of ['exit', 'memory']) crashes.inc({ kind }, 0);
  for (const action of ['create', 'restore']) backupFailures.inc({ action }, 0);

  /** A counter whose value is a plain number kept elsewhere (a hot path's tally). */
  function tallied(name: string, help: string, read: () => number) {
    let shown = 0;
    new Counter({
      name,
      help,
      registers,
      collect() {
        const now = read();
        if (now > shown) this.inc(now - shown);
        shown = now;
      },
    });
  }

  const lastStatus = new Map<string, ServerStatus>();
  return {
    registry,
    /** The port of the separate /metrics listener once it listens (CANOPY_METRICS_PORT 0 picks one). */
    listenerPort: undefined as number | undefined,
    consoleLines,
    sources,
    gateway: gatewayMetrics(registry),
    /** One answered HTTP request (`route`: its pattern). */
    request(method: string, route: string, statusCode: number, seconds: number) {
      http.observe({ method, route, status_class: `${Math.floor(statusCode / 100)}xx` }, seconds);
    },
    /**
     * A hosted server's status as the runtime reported it: entering STARTING or RESTARTING launches an engine.
     * `count` is false on a replica that only watches (another one acts on the cluster's servers).
     */
    serverStatus(id: string, status: ServerStatus, count: boolean) {
      const before = lastStatus.get(id);
      lastStatus.set(id, status);
      if (count && LAUNCHING.has(status) && !LAUNCHING.has(before)) starts.inc();
    },
    serverGone(id: string) {
      lastStatus.delete(id);
    },
    startFailed() {
      startFailures.inc();
    },
    crashed(kind: 'exit' | 'memory') {
      crashes.inc({ kind });
    },
    schedulerRun(task: string, ok: boolean, seconds: number) {
      schedulerRuns.inc({ task, outcome: ok ? 'ok' : 'error' });
      schedulerDuration.observe({ task }, seconds);
    },
    backupDone(action: 'create' | 'restore', seconds: number) {
      backupDuration.observe({ action }, seconds);
    },
    backupFailed(action: 'create' | 'restore') {
      backupFailures.inc({ action });
    },
    webhook(outcome: WebhookOutcome) {
      webhooks.inc({ outcome });
    },
  };
}

/** What became of a Stripe webhook call. */
export type WebhookOutcome =
  | 'credited'
  | 'duplicate'
  | 'ignored'
  | 'uncredited'
  | 'bad_signature'
  | 'unconfigured'
  | 'error';
