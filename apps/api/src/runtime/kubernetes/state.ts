import type { ServerStatus } from '@canopy/contract';
import type { V1Pod } from '@kubernetes/client-node';
import type { GameAddress } from '../types.ts';
import type { GameServer } from './agones.ts';
import { ENGINE_CONTAINER, GAME_PORT_NAME } from './objects.ts';

// How the driver reads Agones' GameServer states and the engine pod's status.

/** A GameServer whose engine died or stopped answering its health checks (the driver treats it as a crash). */
export const crashed = (gs: GameServer | undefined) =>
  gs?.status?.state === 'Unhealthy' || gs?.status?.state === 'Error';

const deleting = (gs: GameServer) => gs.metadata?.deletionTimestamp !== undefined || gs.status?.state === 'Shutdown';

/** Our status of a server from its GameServer as last seen (absent: OFFLINE). */
export function statusOf(gs: GameServer | undefined): ServerStatus {
  if (!gs) return 'OFFLINE';
  if (deleting(gs)) return 'STOPPING';
  if (crashed(gs)) return 'OFFLINE';
  const state = gs.status?.state;
  return state === 'Ready' || state === 'Allocated' || state === 'Reserved' ? 'ONLINE' : 'STARTING';
}

/** Where players reach a Ready GameServer: its node's address and the host port Agones gave the game port. */
export function gameAddressOf(gs: GameServer | undefined): GameAddress | undefined {
  if (!gs || statusOf(gs) !== 'ONLINE') return undefined;
  const port = gs.status?.ports?.find((p) => p.name === GAME_PORT_NAME)?.port;
  const host = gs.status?.address;
  return host && port ? { host, port } : undefined;
}

/** The pod's IP while it runs and is not being deleted (its engine's control API listens there). */
export function podIpOf(pod: V1Pod | undefined): string | undefined {
  if (!pod || pod.metadata?.deletionTimestamp || pod.status?.phase !== 'Running') return undefined;
  return pod.status.podIP;
}

/** How the engine's container ended, from the pod's status: exit code, signal and whether it was over its memory. */
export function exitOf(pod: V1Pod | undefined): { code: number | null; signal: number | null; oom: boolean } {
  const container = pod?.status?.containerStatuses?.find((c) => c.name === ENGINE_CONTAINER);
  const ended = container?.state?.terminated ?? container?.lastState?.terminated;
  if (!ended) return { code: null, signal: null, oom: false };
  // A kubelet seldom sets `signal`: a process a signal ended shows as exit code 128 + its number (137 for SIGKILL).
  // Reported as the signal, as the local supervisor does, so that a crash reads the same on either runtime.
  const code = ended.exitCode ?? null;
  const signal = ended.signal ?? (code !== null && code > 128 && code < 160 ? code - 128 : null);
  return { code: signal === null ? code : null, signal, oom: ended.reason === 'OOMKilled' };
}
