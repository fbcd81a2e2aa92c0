import type { KubernetesObject, V1PodTemplateSpec } from '@kubernetes/client-node';

// The part of Agones' GameServer (agones.dev/v1) the driver writes and reads. Agones ships no TypeScript types for
// its custom resources; these follow its reference (https://agones.dev/site/docs/reference/agones_crd_api_reference/).

export const AGONES_GROUP = 'agones.dev';
export const AGONES_VERSION = 'v1';
export const GAMESERVERS = 'gameservers';

/** A GameServer's lifecycle states (status.state). */
export type GameServerState =
  | 'PortAllocation'
  | 'Creating'
  | 'Starting'
  | 'Scheduled'
  | 'RequestReady'
  | 'Ready'
  | 'Shutdown'
  | 'Error'
  | 'Unhealthy'
  | 'Reserved'
  | 'Allocated';

export interface GameServerPort {
  name: string;
  portPolicy: 'Dynamic' | 'Static' | 'Passthrough' | 'None';
  containerPort: number;
  protocol: 'UDP' | 'TCP' | 'TCPUDP';
  hostPort?: number;
}

export interface GameServer extends KubernetesObject {
  spec: {
    container?: string;
    ports: GameServerPort[];
    health?: { disabled?: boolean; initialDelaySeconds?: number; periodSeconds?: number; failureThreshold?: number };
    sdkServer?: { logLevel?: 'Info' | 'Debug' | 'Error' | 'Trace' };
    template: V1PodTemplateSpec;
  };
  status?: {
    state?: GameServerState;
    address?: string;
    ports?: { name: string; port: number }[];
    nodeName?: string;
  };
}
