import type { ControlClient } from '../control-client.ts';

// Players and version of the servers in the cluster, from each engine's /stats: read once when a server comes
// ONLINE (on this replica's view), then slowly while it stays ONLINE. A console this replica follows announces
// player counts as they change (players-line.ts), which land here too.

/** How often ONLINE servers' /stats are read by each replica: an idle engine's request costs it about 2.5 ms. */
export const STATS_INTERVAL_MS = 30_000;

interface Stats {
  /** The engine these numbers are of (its pod's uid): a new engine starts from nothing. */
  engine: string;
  players: number;
  version: string;
}

/** What the reader needs of the driver. */
export interface StatsSource {
  /** The running engine's control API and its key (pod uid) while the server is ONLINE, else null. */
  engine(id: string): { control: ControlClient; key: string } | null;
  /** The ids of the servers ONLINE now. */
  online(): string[];
  /** Numbers changed: the driver emits the server's status again. */
  changed(id: string): void;
}

/** The last numbers of every ONLINE server, refreshed on a slow timer. */
export class StatsReader {
  private readonly source: StatsSource;
  private readonly stats = new Map<string, Stats>();
  private readonly reading = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(source: StatsSource, intervalMs = STATS_INTERVAL_MS) {
    this.source = source;
    this.timer = setInterval(() => {
      for (const id of this.source.online()) void this.read(id);
    }, intervalMs);
    this.timer.unref();
  }

  /** Players and version of the server's current engine ('N/A' until read). */
  get(id: string, engine: string | undefined): { players: number; version: string } {
    const s = this.stats.get(id);
    return s && s.engine === engine ? s : { players: 0, version: 'N/A' };
  }

  /** The server's engine may be new (it came ONLINE): reads its numbers unless known. */
  seen(id: string) {
    const engine = this.source.engine(id);
    if (engine && this.stats.get(id)?.engine !== engine.key) void this.read(id);
  }

  /** A count the engine announced on its console. */
  players(id: string, players: number) {
    const engine = this.source.engine(id);
    const s = this.stats.get(id);
    if (!engine || !s || s.engine !== engine.key || s.players === players) return;
    s.players = players;
    this.source.changed(id);
  }

  private async read(id: string) {
    const engine = this.source.engine(id);
    if (!engine || this.reading.has(id)) return;
    this.reading.add(id);
    try {
      const { players, version } = await engine.control.stats();
      const before = this.stats.get(id);
      this.stats.set(id, { engine: engine.key, players, version });
      if (before?.engine !== engine.key || before.players !== players || before.version !== version)
        this.source.changed(id);
    } catch {
      // A missed read is not a crash; the GameServer's health decides that.
    } finally {
      this.reading.delete(id);
    }
  }

  forget(id: string) {
    this.stats.delete(id);
  }

  stop() {
    clearInterval(this.timer);
  }
}
