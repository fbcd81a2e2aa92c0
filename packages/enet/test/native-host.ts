// A growtopia.js native ENet host (rusty_enet, the engine's ENet) serving in-process for the cross-check tests:
// the Growtopia settings (crc32, range coder, new-packet client header) on a free port.

import { createSocket } from 'node:dgram';
import { Host } from 'growtopia.js';

export interface NativeEvent {
  type: 'connect' | 'raw' | 'disconnect';
  netId: number;
  channelId?: number;
  data?: Buffer;
}

/** Finds a UDP port nobody holds right now. */
export async function freeUdpPort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Starts a native host and services it on every tick until stop(). */
export async function startNativeHost(): Promise<{
  host: Host;
  port: number;
  events: NativeEvent[];
  stop: () => void;
}> {
  const port = await freeUdpPort();
  const host = new Host('127.0.0.1', port, 32, 2, false, true, null, null, true, true);
  const events: NativeEvent[] = [];
  host.setEmitter((type: NativeEvent['type'], netId: number, channelId?: number, data?: Buffer) => {
    events.push({ type, netId, channelId, data: data ? Buffer.from(data) : undefined });
  });
  let running = true;
  const loop = () => {
    if (!running) return;
    host.service();
    setTimeout(loop, 1);
  };
  loop();
  return {
    host,
    port,
    events,
    stop: () => {
      running = false;
    },
  };
}

/** Polls until `check` returns a value (not undefined) or the deadline passes. */
export async function until<T>(check: () => T | undefined, ms = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
