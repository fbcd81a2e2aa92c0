// The Agones SDK's service definition and messages, from the generated code inside @google-cloud/agones-sdk (the
// same definition the engine's client uses), and the GameServer object turned into its SDK message.
import { createRequire } from 'node:module';
import type { ServiceDefinition } from '@grpc/grpc-js';
import type { KubeObject } from './resources.ts';

const require = createRequire(import.meta.url);

/** agones.dev.sdk.SDK, as @grpc/grpc-js serves it. */
export const sdkService = (require('@google-cloud/agones-sdk/lib/sdk_grpc_pb.js') as Record<string, ServiceDefinition>)[
  'agones.dev.sdk.SDK'
] as ServiceDefinition;

// biome-ignore lint/suspicious/noExplicitAny: generated google-protobuf classes without type declarations
type Message = any;
const pb = require('@google-cloud/agones-sdk/lib/sdk_pb.js') as Record<string, Message>;

export const Empty = pb.Empty as new () => Message;

const seconds = (time: string | undefined) => (time ? Math.floor(Date.parse(time) / 1000) : 0);

/** The SDK's GameServer message for a stored GameServer (what GetGameServer and WatchGameServer send). */
export function gameServerMessage(gs: KubeObject): Message {
  const message = new pb.GameServer();
  const meta = new pb.GameServer.ObjectMeta();
  meta.setName(gs.metadata.name ?? '');
  meta.setNamespace(gs.metadata.namespace ?? '');
  meta.setUid(gs.metadata.uid ?? '');
  meta.setResourceVersion(gs.metadata.resourceVersion ?? '');
  meta.setGeneration(gs.metadata.generation ?? 0);
  meta.setCreationTimestamp(seconds(gs.metadata.creationTimestamp));
  meta.setDeletionTimestamp(seconds(gs.metadata.deletionTimestamp));
  for (const [k, v] of Object.entries(gs.metadata.annotations ?? {})) meta.getAnnotationsMap().set(k, v);
  for (const [k, v] of Object.entries(gs.metadata.labels ?? {})) meta.getLabelsMap().set(k, v);
  message.setObjectMeta(meta);

  const health = new pb.GameServer.Spec.Health();
  const h = gs.spec?.health ?? {};
  health.setDisabled(h.disabled === true);
  health.setPeriodSeconds(h.periodSeconds ?? 0);
  health.setFailureThreshold(h.failureThreshold ?? 0);
  health.setInitialDelaySeconds(h.initialDelaySeconds ?? 0);
  const spec = new pb.GameServer.Spec();
  spec.setHealth(health);
  message.setSpec(spec);

  const status = new pb.GameServer.Status();
  status.setState(gs.status?.state ?? '');
  status.setAddress(gs.status?.address ?? '');
  for (const a of (gs.status?.addresses ?? []) as { type: string; address: string }[]) {
    const address = new pb.GameServer.Status.Address();
    address.setType(a.type);
    address.setAddress(a.address);
    status.addAddresses(address);
  }
  for (const p of (gs.status?.ports ?? []) as { name: string; port: number }[]) {
    const port = new pb.GameServer.Status.Port();
    port.setName(p.name ?? '');
    port.setPort(p.port ?? 0);
    status.addPorts(port);
  }
  message.setStatus(status);
  return message;
}
