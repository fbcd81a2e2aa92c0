import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../db/db.ts';
import { type EventBus, type NoticeEvent, SHARED_EVENTS, type SharedEvent } from './bus.ts';

/** The one NOTIFY channel every replica listens on. */
export const EVENTS_CHANNEL = 'canopy_events';
/** NOTIFY refuses payloads of 8000 bytes or more; ours stay under this, with room for the envelope. */
const MAX_PAYLOAD_BYTES = 7900;
const RECONNECT_MS = 1000;

interface Envelope {
  /** The publishing replica: it drops its own events, which it already delivered locally. */
  r: string;
  e: SharedEvent;
  p: unknown;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** The JSON payloads of one event, a notice's audience split over several when it would pass NOTIFY's limit. */
export function envelopes(replica: string, event: SharedEvent, payload: unknown): string[] {
  const one = JSON.stringify({ r: replica, e: event, p: payload } satisfies Envelope);
  if (Buffer.byteLength(one) < MAX_PAYLOAD_BYTES || event !== 'notice') return [one];
  const notice = payload as NoticeEvent;
  if (notice.audience.length < 2) return [one];
  const half = Math.ceil(notice.audience.length / 2);
  return [
    ...envelopes(replica, event, { ...notice, audience: notice.audience.slice(0, half) }),
    ...envelopes(replica, event, { ...notice, audience: notice.audience.slice(half) }),
  ];
}

/**
 * Backs the bus with PostgreSQL LISTEN/NOTIFY (ADR 0036): the shared events this replica emits are published on
 * one channel, and those of other replicas are re-emitted here. The listener has a connection of its own and
 * opens a new one after losing it. Resolves once the first LISTEN is in place (or failed, then retried) with a
 * function that stops listening.
 */
export async function startPgRelay(opts: {
  url: string;
  db: Db;
  bus: EventBus;
  log: Logger;
}): Promise<() => Promise<void>> {
  const replica = randomUUID();
  const { bus, db, log } = opts;
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  bus.relay = (event, payload) => {
    // On the pool, not the listener's connection: publishing works while the listener reconnects.
    for (const text of envelopes(replica, event, payload))
      db.run('SELECT pg_notify(?, ?)', [EVENTS_CHANNEL, text]).catch((error: Error) => {
        if (Buffer.byteLength(text) >= 8000) log.warn(`event ${event} too large for the other replicas`);
        else log.warn(`event ${event} not published to the other replicas: ${error.message}`);
      });
  };

  const onNotification = (msg: pg.Notification) => {
    if (msg.channel !== EVENTS_CHANNEL || !msg.payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(msg.payload) as Envelope;
    } catch {
      return;
    }
    if (envelope.r === replica || !(SHARED_EVENTS as readonly string[]).includes(envelope.e)) return;
    bus.deliver(envelope.e, envelope.p as never);
  };

  const connect = async () => {
    retry = undefined;
    if (stopped) return;
    const c = new pg.Client({ connectionString: opts.url, keepAlive: true, application_name: 'canopy-events' });
    client = c;
    let lost = false;
    const reconnect = (why: string) => {
      if (lost) return;
      lost = true;
      c.removeAllListeners('notification');
      c.end().catch(() => {});
      if (stopped) return;
      log.warn(`event listener lost its connection (${why}); reconnecting`);
      retry = setTimeout(connect, RECONNECT_MS);
      retry.unref();
    };
    c.on('error', (error) => reconnect(error.message));
    c.on('end', () => reconnect('closed'));
    c.on('notification', onNotification);
    try {
      await c.connect();
      await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      reconnect((error as Error).message);
    }
  };
  await connect();

  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
