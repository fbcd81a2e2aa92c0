import { KubeConfig, Watch } from '@kubernetes/client-node';
import { WebSocket } from 'ws';

// What bench/cluster.ts observes: a browser's status updates on one replica, and the GameServers' state changes as a
// watcher of the cluster sees them (the same watch protocol the replicas' informers use). Times are wall-clock ms
// with a fraction, comparable with the engines' own (their flood lines carry the same clock).

/** Wall-clock time in ms, with sub-millisecond precision. */
export const now = () => performance.timeOrigin + performance.now();

/** A user's socket on one replica, timing each status_update it receives by server name. */
export async function statusSocket(url: string, user: { id: string; token: string }) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws/${user.id}?token=${encodeURIComponent(user.token)}`);
  const seen: { name: string; status: string; at: number }[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'status_update') seen.push({ name: m.payload.name, status: m.payload.status, at: now() });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  /** Resolves with the time `name` was first shown `status` at or after `since` (polls what arrived). */
  const when = async (name: string, status: string, since: number, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = seen.find((s) => s.name === name && s.status === status && s.at >= since);
      if (hit) return hit.at;
      if (Date.now() > deadline) throw new Error(`${name} never showed ${status} on ${url}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { ws, when, close: () => ws.close() };
}

/** One change of a GameServer as a watcher saw it. */
export interface GameServerChange {
  name: string;
  uid: string;
  /** status.state, or 'DELETED' for its deletion. */
  state: string;
  at: number;
}

/** Watches the namespace's GameServers and keeps each state change with the time it arrived. */
export async function watchGameServers(kubeconfigPath: string, namespace: string) {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const changes: GameServerChange[] = [];
  const last = new Map<string, string>();
  const request = await new Watch(kubeConfig).watch(
    `/apis/agones.dev/v1/namespaces/${namespace}/gameservers`,
    {},
    (type: string, object: { metadata: { name: string; uid: string }; status?: { state?: string } }) => {
      const state = type === 'DELETED' ? 'DELETED' : (object.status?.state ?? '');
      const key = object.metadata.uid;
      if (last.get(key) === state) return;
      last.set(key, state);
      changes.push({ name: object.metadata.name, uid: key, state, at: now() });
    },
    () => {},
  );
  /** The first change of `name` to `state` at or after `since`. */
  const first = (name: string, state: string, since: number) =>
    changes.find((c) => c.name === name && c.state === state && c.at >= since);
  return { first, stop: () => request.abort() };
}
