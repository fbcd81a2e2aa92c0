// Agones' admission webhooks for a GameServer create: the mutating one's defaults (GameServer.ApplyDefaults in
// pkg/apis/agones/v1/gameserver.go) and the validating one's port and container rules (GameServerSpec.Validate).
import type { KubeObject, ResourceType } from './resources.ts';
import { invalid, type StatusCause } from './status.ts';

/** The Agones release the CRD fixture and these rules come from. */
export const AGONES_VERSION = '1.57.0-dev';

export const FINALIZER = 'agones.dev';

interface GamePort {
  name?: string;
  portPolicy?: string;
  container?: string;
  containerPort?: number;
  hostPort?: number;
  protocol?: string;
  range?: string;
}

/** The mutating webhook: container, ports, health, scheduling, sdkServer, eviction defaults, first state. */
export function applyGameServerDefaults(gs: KubeObject): void {
  const spec = gs.spec;
  const containers: { name: string }[] = spec.template?.spec?.containers ?? [];
  if (containers.length === 1) spec.container = containers[0]?.name;
  for (const port of (spec.ports ?? []) as GamePort[]) {
    port.portPolicy ||= 'Dynamic';
    port.range ||= 'default';
    port.protocol ||= 'UDP';
    port.container ||= spec.container;
  }
  spec.health ??= {};
  if (!spec.health.disabled) {
    if (!(spec.health.periodSeconds > 0)) spec.health.periodSeconds = 5;
    if (!(spec.health.failureThreshold > 0)) spec.health.failureThreshold = 3;
    if (!(spec.health.initialDelaySeconds > 0)) spec.health.initialDelaySeconds = 5;
  }
  spec.scheduling ||= 'Packed';
  spec.sdkServer ??= {};
  spec.sdkServer.logLevel ||= 'Info';
  spec.sdkServer.grpcPort ||= 9357;
  spec.sdkServer.httpPort ||= 9358;
  spec.eviction ??= {};
  spec.eviction.safe ||= 'Never';
  gs.metadata.annotations = { ...gs.metadata.annotations, 'agones.dev/sdk-version': AGONES_VERSION };
  gs.metadata.finalizers = [...(gs.metadata.finalizers ?? []), FINALIZER];
  gs.status ??= {};
  if (!gs.status.state) {
    const allocates = (spec.ports ?? []).some(
      (p: GamePort) => p.portPolicy === 'Dynamic' || p.portPolicy === 'Passthrough',
    );
    gs.status.state = allocates ? 'PortAllocation' : 'Creating';
  }
  gs.status.eviction = { ...spec.eviction };
}

/** The validating webhook (the rules about ports and containers). */
export function checkGameServer(type: ResourceType, gs: KubeObject): void {
  const causes: StatusCause[] = [];
  const spec = gs.spec;
  const containers: { name: string }[] = spec.template?.spec?.containers ?? [];
  const has = (name: string | undefined) => containers.some((c) => c.name === name);
  if (!spec.container && containers.length > 1)
    causes.push({
      reason: 'FieldValueRequired',
      message: 'Required value: Container is required when using multiple containers in the pod template',
      field: 'spec.container',
    });
  if (!has(spec.container))
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${spec.container ?? ''}": Could not find a container named ${spec.container ?? ''}`,
      field: 'spec.container',
    });
  for (const [i, p] of ((spec.ports ?? []) as GamePort[]).entries()) {
    const at = `spec.ports[${i}]`;
    if ((p.portPolicy === 'Dynamic' || p.portPolicy === 'Static') && !(Number(p.containerPort) > 0))
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value: Container Port is required when using Dynamic or Static port policies',
        field: `${at}.containerPort`,
      });
    if (p.portPolicy === 'Passthrough' && Number(p.containerPort) > 0)
      causes.push({
        reason: 'FieldValueRequired',
        message: 'Required value: ContainerPort cannot be specified with Passthrough PortPolicy',
        field: `${at}.containerPort`,
      });
    if (Number(p.hostPort) > 0 && (p.portPolicy === 'Dynamic' || p.portPolicy === 'Passthrough'))
      causes.push({
        reason: 'FieldValueForbidden',
        message: 'Forbidden: HostPort cannot be specified with a Dynamic or Passthrough PortPolicy',
        field: `${at}.hostPort`,
      });
    if (p.container && !has(p.container))
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${p.container}": Container must be empty or the name of a container in the pod template`,
        field: `${at}.container`,
      });
  }
  if (causes.length) throw invalid(type, gs.metadata.name ?? '', causes);
}
