// Our interface around growtopia.js's native ENet Host. The host lives on its own thread (host-worker.ts says
// why); this side is what the game layer uses. Nothing else in the engine touches growtopia.js, and none of
// this is loaded until an engine wakes (net/game-network.ts).
import { MessageChannel, Worker } from 'node:worker_threads';
import type { HostCommand, HostEvent, HostWorkerData } from './host-messages.ts';

/** What the game layer hears from ENet. */
export interface EnetEvents {
  connect(peer: number): void;
  receive(peer: number, data: Buffer): void;
  disconnect(peer: number): void;
  error?(message: string): void;
}

/** How the host is built. */
export interface EnetOptions {
  port: number;
  peerLimit: number;
  /**
   * Test only: accept the standard ENet header from clients instead of the game client's "new packet" one
   * (growtopia.js's client mode cannot speak the new one; see docs/decisions/0026-playable-servers.md).
   */
  standardHeader: boolean;
}

/** An ENet host bound on a UDP port. Checksum and range coder on, 2 channels, no bandwidth limit. */
export interface EnetHost {
  readonly port: number;
  /** Peers connected (connect events minus disconnect events seen). */
  peerCount(): number;
  /** Queues a reliable packet on channel 0. */
  send(peer: number, data: Buffer): void;
  /** Disconnects once queued packets are out (`later`), or at once. */
  disconnect(peer: number, later?: boolean): void;
  /** Sends what is queued, stops the thread and lets go of the port. */
  close(): Promise<void>;
}

/** Starts the ENet thread and resolves once its host is bound. */
export function openEnetHost(options: EnetOptions, events: EnetEvents): Promise<EnetHost> {
  const { port1: commands, port2: theirs } = new MessageChannel();
  const workerData: HostWorkerData = { ...options, commands: theirs };
  const worker = new Worker(new URL('./host-worker.ts', import.meta.url), {
    workerData,
    transferList: [theirs],
    // The thread needs little of its own: a small heap keeps an awake engine's memory near an idle one's.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  const command = (c: HostCommand, transfer?: ArrayBuffer[]) => commands.postMessage(c, transfer);
  const peers = new Set<number>();
  let exited = false;
  const gone = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    worker.on('error', (error) => {
      events.error?.(`ENet thread: ${error.message}`);
      reject(error);
    });
    worker.on('message', (e: HostEvent) => {
      switch (e.t) {
        case 'bound':
          return resolve(host(e.port));
        case 'failed':
          return reject(new Error(e.message));
        case 'error':
          return events.error?.(e.message);
        case 'connect':
          peers.add(e.peer);
          return events.connect(e.peer);
        case 'receive':
          return events.receive(e.peer, Buffer.from(e.data.buffer, e.data.byteOffset, e.data.byteLength));
        case 'disconnect':
          peers.delete(e.peer);
          return events.disconnect(e.peer);
      }
    });
  });

  function host(port: number): EnetHost {
    return {
      port,
      peerCount: () => peers.size,
      send(peer, data) {
        if (!exited && peers.has(peer)) command({ t: 'send', peer, data });
      },
      disconnect(peer, later = true) {
        if (!exited && peers.has(peer)) command({ t: 'disconnect', peer, later });
      },
      async close() {
        if (!exited) command({ t: 'close' });
        // A thread stuck in the native code is not waited for long.
        const timer = setTimeout(() => void worker.terminate(), 2000);
        await gone;
        clearTimeout(timer);
        commands.close();
      },
    };
  }
}
