// What the engine's thread and the ENet thread (host-worker.ts) say to each other.

/** Engine → ENet thread, over the synchronous command port. */
export type HostCommand =
  | { t: 'send'; peer: number; data: Uint8Array }
  | { t: 'disconnect'; peer: number; later: boolean }
  | { t: 'close' };

/** ENet thread → engine. */
export type HostEvent =
  | { t: 'bound'; port: number }
  | { t: 'failed'; message: string }
  | { t: 'error'; message: string }
  | { t: 'connect'; peer: number }
  | { t: 'receive'; peer: number; data: Uint8Array }
  | { t: 'disconnect'; peer: number }
  | { t: 'closed' };

/** The worker's start data. */
export interface HostWorkerData {
  port: number;
  peerLimit: number;
  standardHeader: boolean;
  commands: unknown;
}
