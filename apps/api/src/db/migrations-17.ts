import type { Migration } from './migrations.ts';

/** Migration 17 (issue 24, Discord alerts): an owner's webhook per server and the durable queue of alerts to send. */
export const migrationsFrom17: Migration[] = [
  {
    version: 17,
    name: 'Discord alert webhooks and their delivery queue',
    // server_alert_hooks: one webhook per server (deleted with it). url_sealed is the URL sealed with AES-256-GCM
    // (alerts/seal.ts): it holds the webhook's token, so it is never stored or shown whole; url_hint is what the
    // owner sees. events is a JSON array of the alert kinds chosen. peak_players is the highest player count
    // alerted so far (the "player peak" alert fires when it is beaten). warned_24h_for / warned_1h_for: the
    // server_expires_at each expiry warning was sent for, so each is sent once per expiry, and again after a renewal.
    // alert_queue: alerts waiting to be sent (alerts/delivery.ts), with a copy of the sealed URL so that "deleted"
    // still reaches the owner once the server and its hook are gone. destination (a hash of the URL) is what the
    // per-destination rate limit counts. in_flight is set while a POST is under way: a row found so at pick-up
    // was cut off by a dead process, and one cut off twice is dropped (at most one duplicate, ADR 0049).
    // The queue is bounded per server by the enqueuer (alerts/alerts.repo.ts): the oldest are dropped.
    sql: `
    CREATE TABLE server_alert_hooks (
      server_id TEXT PRIMARY KEY REFERENCES servers(id) ON DELETE CASCADE,
      url_sealed TEXT NOT NULL,
      url_hint TEXT NOT NULL,
      events TEXT NOT NULL DEFAULT '[]',
      peak_players INTEGER NOT NULL DEFAULT 0 CHECK (peak_players >= 0),
      warned_24h_for BIGINT,
      warned_1h_for BIGINT,
      updated_at BIGINT NOT NULL
    );
    CREATE TABLE alert_queue (
      id TEXT PRIMARY KEY,
      server_id TEXT,
      destination TEXT NOT NULL,
      url_sealed TEXT NOT NULL,
      event TEXT NOT NULL,
      payload TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      cut_off INTEGER NOT NULL DEFAULT 0 CHECK (cut_off IN (0, 1)),
      in_flight INTEGER NOT NULL DEFAULT 0 CHECK (in_flight IN (0, 1)),
      next_at BIGINT NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX alert_queue_due ON alert_queue (next_at);
    CREATE INDEX alert_queue_server ON alert_queue (server_id, created_at);
  `,
  },
];
