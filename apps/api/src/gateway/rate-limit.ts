/** At most `max` hits per key in each `windowMs` (fixed windows). */
export interface WindowRule {
  max: number;
  windowMs: number;
}

/**
 * In-memory counters per key (an IP, a server and GrowID). The gateway is one process per install, so memory
 * is the right place; the map is bounded so that a flood of keys cannot grow it (the oldest window goes first).
 */
export class WindowCounter {
  private readonly hits = new Map<string, { count: number; since: number }>();
  private readonly rule: WindowRule;
  private readonly maxKeys: number;
  constructor(rule: WindowRule, maxKeys = 50_000) {
    this.rule = rule;
    this.maxKeys = maxKeys;
  }

  /** Counts a hit; false when the key is over its limit in the current window. */
  hit(key: string, now: number): boolean {
    const entry = this.hits.get(key);
    if (entry && now - entry.since < this.rule.windowMs) {
      entry.count++;
      return entry.count <= this.rule.max;
    }
    if (entry) this.hits.delete(key);
    else if (this.hits.size >= this.maxKeys) this.evict(now);
    this.hits.set(key, { count: 1, since: now });
    return this.rule.max >= 1;
  }

  private evict(now: number): void {
    for (const [key, entry] of this.hits) if (now - entry.since >= this.rule.windowMs) this.hits.delete(key);
    // Insertion order is window-start order: the first key is the oldest window.
    while (this.hits.size >= this.maxKeys) {
      const oldest = this.hits.keys().next().value;
      if (oldest === undefined) break;
      this.hits.delete(oldest);
    }
  }
}
