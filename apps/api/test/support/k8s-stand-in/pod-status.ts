// A pod's status as a kubelet reports it, from what the stand-in knows about its containers.
import type { Exit } from './container.ts';
import { timestamp } from './resources.ts';

export type ContainerState =
  | { kind: 'waiting'; reason: string; message?: string }
  | { kind: 'running'; startedAt: string; pid: number | undefined }
  | { kind: 'terminated'; exit: Exit; pid: number | undefined };

export interface ContainerView {
  name: string;
  image: string;
  state: ContainerState;
  restartCount: number;
  last?: Exit;
  /** false while a readiness probe has not passed (no probe: ready once running). */
  ready?: boolean;
}

export interface PodView {
  ip: string;
  startTime: string;
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  containers: ContainerView[];
}

const terminated = (exit: Exit, pid: number | undefined) => ({
  exitCode: exit.exitCode,
  ...(exit.signal ? { signal: exitSignal(exit.signal) } : {}),
  reason: exit.oomKilled ? 'OOMKilled' : exit.exitCode === 0 ? 'Completed' : 'Error',
  startedAt: exit.startedAt,
  finishedAt: exit.finishedAt,
  containerID: `stand-in://${pid ?? 0}`,
});

const exitSignal = (name: string) => ({ SIGTERM: 15, SIGKILL: 9, SIGINT: 2, SIGHUP: 1 })[name] ?? 0;

function containerStatus(c: ContainerView) {
  const state =
    c.state.kind === 'waiting'
      ? { waiting: { reason: c.state.reason, ...(c.state.message ? { message: c.state.message } : {}) } }
      : c.state.kind === 'running'
        ? { running: { startedAt: c.state.startedAt } }
        : { terminated: terminated(c.state.exit, c.state.pid) };
  return {
    name: c.name,
    image: c.image,
    imageID: '',
    ...(c.state.kind !== 'waiting' ? { containerID: `stand-in://${c.state.pid ?? 0}` } : {}),
    ready: c.state.kind === 'running' && c.ready !== false,
    started: c.state.kind === 'running',
    restartCount: c.restartCount,
    state,
    lastState: c.last ? { terminated: terminated(c.last, undefined) } : {},
  };
}

const condition = (type: string, ok: boolean, reason?: string) => ({
  type,
  status: ok ? 'True' : 'False',
  lastProbeTime: null,
  lastTransitionTime: timestamp(),
  ...(reason && !ok ? { reason } : {}),
});

/** status for a scheduled pod the kubelet runs (keeps the transition times of conditions that did not change). */
export function podStatus(view: PodView, previous: { conditions?: { type: string; status: string }[] } | undefined) {
  const ready =
    view.phase === 'Running' && view.containers.every((c) => c.state.kind === 'running' && c.ready !== false);
  const conditions = [
    condition('PodReadyToStartContainers', true),
    condition('Initialized', true),
    condition('Ready', ready, view.phase === 'Running' ? 'ContainersNotReady' : 'PodCompleted'),
    condition('ContainersReady', ready, view.phase === 'Running' ? 'ContainersNotReady' : 'PodCompleted'),
    condition('PodScheduled', true),
  ].map((c) => {
    const before = previous?.conditions?.find((p) => p.type === c.type);
    return before?.status === c.status
      ? { ...before, ...c, lastTransitionTime: (before as { lastTransitionTime?: string }).lastTransitionTime }
      : c;
  });
  return {
    phase: view.phase,
    conditions,
    hostIP: '127.0.0.1',
    hostIPs: [{ ip: '127.0.0.1' }],
    podIP: view.ip,
    podIPs: [{ ip: view.ip }],
    startTime: view.startTime,
    containerStatuses: view.containers.map(containerStatus),
    qosClass: 'BestEffort',
  };
}

/** status for a pod the scheduler cannot place yet. */
export function unschedulableStatus(message: string) {
  return {
    phase: 'Pending',
    conditions: [
      { ...condition('PodScheduled', false), reason: 'Unschedulable', message: `0/1 nodes are available: ${message}.` },
    ],
    qosClass: 'BestEffort',
  };
}
