// A recording Agones SDK server for the engine's tests: agones.dev.sdk.SDK over gRPC on loopback, with the service
// definition from @google-cloud/agones-sdk (the one the engine's client uses). It records each call in order and
// can be told to fail Ready.
import { createRequire } from 'node:module';
import {
  Server,
  ServerCredentials,
  type ServerReadableStream,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type sendUnaryData,
  status,
} from '@grpc/grpc-js';

const require = createRequire(import.meta.url);
const service = (require('@google-cloud/agones-sdk/lib/sdk_grpc_pb.js') as Record<string, ServiceDefinition>)[
  'agones.dev.sdk.SDK'
] as ServiceDefinition;
const { Empty } = require('@google-cloud/agones-sdk/lib/sdk_pb.js') as { Empty: new () => unknown };

export type SdkCall = 'Ready' | 'Health' | 'Shutdown';

export interface SdkServerStandIn {
  port: number;
  /** Every call so far, in order (one Health entry per ping). */
  calls: SdkCall[];
  /** When set, Ready answers UNAVAILABLE. */
  failReady: boolean;
  close(): void;
}

/** Starts the server on a free loopback port, or on `port` (a sidecar started again). */
export async function startSdkServer(port = 0): Promise<SdkServerStandIn> {
  const server = new Server();
  const stand: SdkServerStandIn = { port: 0, calls: [], failReady: false, close: () => server.forceShutdown() };
  const unary = (call: SdkCall) => (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    if (call === 'Ready' && stand.failReady) return callback({ code: status.UNAVAILABLE, details: 'told to fail' });
    stand.calls.push(call);
    callback(null, new Empty());
  };
  const unused = (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
    callback({ code: status.UNIMPLEMENTED, details: 'not in this test' });
  server.addService(service, {
    ready: unary('Ready'),
    shutdown: unary('Shutdown'),
    health: (call: ServerReadableStream<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      call.on('data', () => stand.calls.push('Health'));
      call.on('end', () => callback(null, new Empty()));
      call.on('error', () => {});
    },
    allocate: unused,
    getGameServer: unused,
    watchGameServer: (call: ServerWritableStream<unknown, unknown>) => call.end(),
    setLabel: unused,
    setAnnotation: unused,
    reserve: unused,
  });
  stand.port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
  return stand;
}
