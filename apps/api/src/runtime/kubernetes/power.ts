import type { ServerStatus } from '@canopy/contract';
import type { HostedServerSpec, RuntimeListener } from '../types.ts';
import { RuntimeBusyError } from '../types.ts';
import type { MaintenancePods } from './files.ts';
import { apiMessage, type KubeApi } from './kube.ts';
import { objectNames } from './names.ts';
import {
  ENGINE_CONTAINER,
  gameServerManifest,
  type ObjectSettings,
  secretManifest,
  volumeClaimManifest,
} from './objects.ts';
import { crashed, statusOf } from './state.ts';
import type { ClusterView } from './watch.ts';

// The steps of the power actions, run with the server's power lock held (lease.ts): bring a server's GameServer
// up and wait for Agones to call it Ready, or take it down and wait until it is gone.

/** What the steps need of the driver. */
export interface PowerHost {
  kube: KubeApi;
  view: ClusterView;
  files: MaintenancePods;
  settings: ObjectSettings;
  listener: RuntimeListener;
  timeouts: { startMs: number; stopMs: number; killMs: number };
  /** The server's memory ceiling by its owner's plan (the container's memory limit), null for none. */
  memoryLimitMB(spec: HostedServerSpec): Promise<number | null>;
  /** The environment of the server's engine besides its secret (the game CDN, the item database by version). */
  engineEnv(spec: HostedServerSpec): Promise<Record<string, string>>;
  /** Shows `status` for the server while this replica's action runs; null: what the cluster says. */
  show(id: string, status: ServerStatus | null): void;
}

/** Lines of the engine's log a failed start or a crash reports. */
export const LAST_LINES = 20;
/** Beyond the pod's own grace: time for Agones and the kubelet to notice and remove a stopped pod. */
const DELETE_SLACK_MS = 30_000;

/** How long a GameServer may take to go once deleted: the pod's grace (SIGTERM, then the kubelet's kill) and slack. */
const goneWithinMs = (host: PowerHost) => host.timeouts.stopMs + host.timeouts.killMs + DELETE_SLACK_MS;

/**
 * Deletes the server's GameServer (Agones deletes its pod: SIGTERM, the engine saves, tells the SDK it shuts down and
 * exits) and resolves once it is gone; rejects when it is still there after the grace and some slack.
 */
export async function takeDown(host: PowerHost, id: string): Promise<void> {
  const name = objectNames(id).gameServer;
  if (!host.view.gameServer(id)) return;
  await host.kube.deleteGameServer(name);
  if (!(await host.view.until(() => host.view.gameServer(id) === undefined, goneWithinMs(host))))
    throw new Error(`the game server did not stop within ${goneWithinMs(host)} ms`);
}

/** The server's Secret and volume, made when missing (every pod of the server mounts and reads them). */
export async function ensureStorage(kube: KubeApi, settings: ObjectSettings, spec: HostedServerSpec): Promise<void> {
  await kube.createSecret(secretManifest(settings, spec));
  await kube.createVolumeClaim(volumeClaimManifest(settings, spec));
}

/** The last lines of the engine's log in the server's pod (what a failed start or a crash shows). */
export function lastLines(host: PowerHost, id: string): Promise<string[]> {
  return host.kube.podLog(objectNames(id).gameServer, ENGINE_CONTAINER, LAST_LINES).catch(() => []);
}

/**
 * Brings the server up: its maintenance pod goes, its Secret and volume exist, its GameServer is made (or the one
 * there is taken over) and Agones calls it Ready. A start that does not get there within the start timeout leaves
 * nothing running, reports startFailed with the engine's last lines and rejects.
 */
export async function bringUp(host: PowerHost, spec: HostedServerSpec): Promise<void> {
  const { kube, view, settings } = host;
  try {
    await host.files.hold(spec.id);
    const existing = view.gameServer(spec.id);
    // One left by an api that died mid-start, or started meanwhile by a replica whose lease expired: taken over
    // when it is healthy, replaced when it crashed or is going.
    if (existing && (crashed(existing) || statusOf(existing) === 'STOPPING')) await takeDown(host, spec.id);
    if (!view.gameServer(spec.id)) {
      await ensureStorage(kube, settings, spec);
      const memoryMB = await host.memoryLimitMB(spec).catch(() => null);
      const env = await host.engineEnv(spec);
      await kube.createGameServer(gameServerManifest(settings, spec, { memoryMB, env }));
    }
  } catch (error) {
    const reason = error instanceof RuntimeBusyError ? error.message : apiMessage(error);
    return failed(host, spec.id, `the game server could not be created (${reason})`);
  }
  // The informer shows a GameServer just made a moment later: "gone" means gone after it was seen.
  let seen = false;
  const settled = () => {
    const gs = view.gameServer(spec.id);
    seen ||= gs !== undefined;
    return seen && (!gs || crashed(gs) || statusOf(gs) === 'ONLINE' || statusOf(gs) === 'STOPPING');
  };
  await view.until(settled, host.timeouts.startMs);
  const gs = view.gameServer(spec.id);
  if (statusOf(gs) === 'ONLINE') return host.show(spec.id, null);
  const why = !gs
    ? 'the game server was deleted while it started'
    : crashed(gs)
      ? `the engine failed (${gs.status?.state})`
      : `not ready within ${host.timeouts.startMs} ms (${gs.status?.state ?? 'no state yet'})`;
  return failed(host, spec.id, why);
}

/** A start that did not make it: nothing is left running, the failure is reported, and the action rejects. */
async function failed(host: PowerHost, id: string, reason: string): Promise<never> {
  const lines = await lastLines(host, id);
  await takeDown(host, id).catch(() => {});
  host.show(id, 'OFFLINE');
  host.listener.startFailed(id, reason, lines);
  host.show(id, null);
  throw new Error(reason);
}
