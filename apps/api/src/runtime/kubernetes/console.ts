import type { ControlClient } from '../control-client.ts';
import { LineRing } from '../local/line-ring.ts';
import type { ConsoleWatch } from '../types.ts';

// Console lines of engines in the cluster reach this replica's browsers by this replica following the engine's own
// console (its control API's SSE stream), and only while a browser here watches that server: no line crosses the
// database or another replica, and an engine nobody watches is not followed at all.

const HISTORY_LINES = 1000;
/** How long a watch waits for the engine's kept lines before it opens with what this replica has. */
const HISTORY_WAIT_MS = 3000;
const RETRY_MS = 1000;

/** What the followers need of the driver. */
export interface ConsoleSource {
  /**
   * The control API of the server's running engine and something naming that engine (its pod's uid, so that a
   * new engine's line numbers start over), or null while none runs.
   */
  engine(id: string): { control: ControlClient; key: string } | null;
  /** Resolves once engine(id) may have changed (or the signal aborts). */
  changed(id: string, signal: AbortSignal): Promise<void>;
  /** A line for this replica's browsers (the listener's console). */
  line(id: string, line: string): void;
}

/** One server's console as followed for this replica's watches. */
class Follower {
  refs = 0;
  readonly ring = new LineRing(HISTORY_LINES);
  readonly abort = new AbortController();
  readonly ready: Promise<void>;
  /**
   * The watches opened (ready resolved, their history taken from the ring): lines read after this, a later
   * engine's kept lines too, are news to them.
   */
  private opened = false;
  private resolveReady = () => {};

  constructor() {
    this.ready = new Promise((resolve) => {
      this.resolveReady = resolve;
    });
    setTimeout(() => this.markReady(), HISTORY_WAIT_MS).unref();
  }

  private markReady() {
    this.opened = true;
    this.resolveReady();
  }

  /** Follows the engine (and each engine after it) until no watch is left. */
  async run(id: string, source: ConsoleSource) {
    let key: string | null = null;
    let after = 0;
    const { signal } = this.abort;
    while (!signal.aborted) {
      const engine = source.engine(id);
      if (!engine) {
        this.markReady(); // nothing runs: the watch opens with what is known
        await source.changed(id, signal);
        continue;
      }
      // A new engine numbers its lines from 1 again; its kept lines are news to the browsers already watching.
      const fresh = engine.key !== key;
      if (fresh) {
        after = 0;
        key = engine.key;
      }
      try {
        const { lines } = await engine.control.request<{ lines: { seq: number; line: string }[] }>(
          'GET',
          `/console/history?after=${after}`,
        );
        for (const l of lines) {
          this.ring.push(l.line);
          // The first fetch of a watch is its history; after that, lines missed while reconnecting are news.
          if (this.opened) source.line(id, l.line);
          after = l.seq;
        }
        this.markReady();
        await engine.control.followConsole(
          after,
          (seq, line) => {
            if (seq <= after) return;
            after = seq;
            this.ring.push(line);
            source.line(id, line);
          },
          signal,
        );
      } catch {
        // The engine went away or is not answering yet: the loop finds out which.
      }
      if (!signal.aborted) await new Promise((r) => setTimeout(r, RETRY_MS).unref());
    }
  }
}

/** The console followers of this replica, one per watched server, ref-counted by the browsers' watches. */
export class ConsoleFollowers {
  private readonly source: ConsoleSource;
  private readonly followers = new Map<string, Follower>();
  /** Lines of servers nobody follows here (the driver's own notes), kept for a watch that opens later. */
  private readonly notes = new Map<string, LineRing>();

  constructor(source: ConsoleSource) {
    this.source = source;
  }

  /** Opens a watch; the first one starts following the server's engine. */
  watch(id: string): ConsoleWatch {
    let follower = this.followers.get(id);
    if (!follower) {
      const f = new Follower();
      for (const line of this.notes.get(id)?.last() ?? []) f.ring.push(line);
      this.followers.set(id, f);
      void f.run(id, this.source);
      follower = f;
    }
    follower.refs++;
    const f = follower;
    let ended = false;
    return {
      ready: f.ready,
      end: () => {
        if (ended) return;
        ended = true;
        if (--f.refs > 0) return;
        f.abort.abort();
        if (this.followers.get(id) === f) this.followers.delete(id);
      },
    };
  }

  /** The lines this replica holds of the server's console, oldest first. */
  history(id: string): string[] {
    return this.followers.get(id)?.ring.last() ?? this.notes.get(id)?.last() ?? [];
  }

  /** A line of the driver's own (a restart's reason): shown to this replica's watchers and kept. */
  note(id: string, line: string) {
    const follower = this.followers.get(id);
    if (follower) follower.ring.push(line);
    else {
      let ring = this.notes.get(id);
      if (!ring) {
        ring = new LineRing(20);
        this.notes.set(id, ring);
      }
      ring.push(line);
    }
    this.source.line(id, line);
  }

  /** Stops following everything (shutdown, or the server is gone). */
  close(id?: string) {
    for (const [key, f] of this.followers)
      if (id === undefined || key === id) {
        f.abort.abort();
        this.followers.delete(key);
      }
    if (id !== undefined) this.notes.delete(id);
  }
}
