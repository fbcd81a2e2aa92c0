// A controller's work queue: keys are handled one at a time, after the change that queued them has been delivered
// to everyone (so a controller's own writes never reorder the events a watch sees), and a key queued several times
// before its turn is handled once, against the newest state.
export class WorkQueue {
  private pending = new Set<string>();
  private running = false;
  private stopped = false;
  private handle: (key: string) => void | Promise<void>;

  constructor(handle: (key: string) => void | Promise<void>) {
    this.handle = handle;
  }

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (!this.running) {
      this.running = true;
      setImmediate(() => void this.drain());
    }
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
  }

  private async drain(): Promise<void> {
    while (this.pending.size && !this.stopped) {
      const key = this.pending.values().next().value as string;
      this.pending.delete(key);
      try {
        await this.handle(key);
      } catch (error) {
        // A conflict with a concurrent write: handle the key again against the newer object.
        if ((error as { status?: { code?: number } }).status?.code === 409) this.pending.add(key);
        else if (!this.stopped) console.error(`k8s stand-in: handling ${key} failed:`, error);
      }
    }
    this.running = false;
  }
}
