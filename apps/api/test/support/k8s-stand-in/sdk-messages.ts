// The Agones SDK's service definition and messages, from the generated code inside @google-cloud/agones-sdk (the
// same definition the engine's client uses), and the GameServer object turned into its SDK message.
import { createRequire } from 'node:module';
import type { ServiceDefinition } from '@grpc/grpc-js';
import type { KubeObject } from './resources.ts';

const require = createRequire(import.meta.url);

const generated = (require('@google-cloud/agones-sdk/lib/sdk_grpc_pb.js') as Record<string, ServiceDefinition>)[
  'agones.dev.sdk.SDK'
] as ServiceDefinition;

/**
 * agones.dev.sdk.SDK, as @grpc/grpc-js serves it; GameServer answers are handed over already encoded (see
 * gameServerBytes).
 */
export const sdkService: ServiceDefinition = {
  ...generated,
  getGameServer: { ...(generated.getGameServer as object), responseSerialize: (bytes: Buffer) => bytes } as never,
  watchGameServer: { ...(generated.watchGameServer as object), responseSerialize: (bytes: Buffer) => bytes } as never,
};

// biome-ignore lint/suspicious/noExplicitAny: generated google-protobuf classes without type declarations
type Message = any;
const pb = require('@google-cloud/agones-sdk/lib/sdk_pb.js') as Record<string, Message>;

export const Empty = pb.Empty as new () => Message;

const seconds = (time: string | undefined) => (time ? Math.floor(Date.parse(time) / 1000) : 0);

const varint = (n: number): number[] => {
  const out: number[] = [];
  let rest = n;
  while (rest > 127) {
    out.push((rest & 127) | 128);
    rest >>>= 7;
  }
  out.push(rest);
  return out;
};
/** A length-delimited protobuf field. */
const field = (num: number, payload: Buffer) =>
  Buffer.concat([Buffer.from(varint((num << 3) | 2)), Buffer.from(varint(payload.length)), payload]);
const mapField = (num: number, map: Record<string, string> | undefined) =>
  Buffer.concat(
    Object.entries(map ?? {}).map(([k, v]) =>
      field(num, Buffer.concat([field(1, Buffer.from(k)), field(2, Buffer.from(v))])),
    ),
  );

/**
 * The encoded GameServer message for a stored GameServer (what GetGameServer and WatchGameServer send). The
 * generated code cannot encode map fields with google-protobuf 4 (jspb.Map lost serializeBinary), so ObjectMeta's
 * labels and annotations are encoded here, and the message assembled field by field.
 */
export function gameServerBytes(gs: KubeObject): Buffer {
  const message = gameServerMessage(gs);
  const meta = Buffer.concat([
    Buffer.from(message.getObjectMeta().serializeBinary()),
    mapField(8, gs.metadata.annotations),
    mapField(9, gs.metadata.labels),
  ]);
  return Buffer.concat([
    field(1, meta),
    field(2, Buffer.from(message.getSpec().serializeBinary())),
    field(3, Buffer.from(message.getStatus().serializeBinary())),
  ]);
}

/** The SDK's GameServer message for a stored GameServer, labels and annotations left out (see gameServerBytes). */
function gameServerMessage(gs: KubeObject): Message {
  const message = new pb.GameServer();
  const meta = new pb.GameServer.ObjectMeta();
  meta.setName(gs.metadata.name ?? '');
  meta.setNamespace(gs.metadata.namespace ?? '');
  meta.setUid(gs.metadata.uid ?? '');
  meta.setResourceVersion(gs.metadata.resourceVersion ?? '');
  meta.setGeneration(gs.metadata.generation ?? 0);
  meta.setCreationTimestamp(seconds(gs.metadata.creationTimestamp));
  meta.setDeletionTimestamp(seconds(gs.metadata.deletionTimestamp));
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
