// A container's readinessProbe (tcpSocket or httpGet), run against the pod's IP as the kubelet runs it: the
// container is ready after successThreshold passes in a row and stops being ready after failureThreshold failures.
import { request } from 'node:http';
import { connect } from 'node:net';
import { ConfigError, type Container } from './container-env.ts';

export interface Probe {
  tcpSocket?: { port: number | string; host?: string };
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string };
  exec?: unknown;
  grpc?: unknown;
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

/** Refuses, before the container starts, a readiness probe the stand-in cannot run. */
export function checkProbe(c: Container & { readinessProbe?: Probe }): void {
  const probe = c.readinessProbe;
  if (probe && !probe.tcpSocket && !probe.httpGet)
    throw new ConfigError(`container "${c.name}": the stand-in runs tcpSocket and httpGet readiness probes only`);
}

/** A named port is looked up in the container's ports, as the kubelet does. */
function portOf(c: Container, port: number | string): number {
  if (typeof port === 'number') return port;
  const found = c.ports?.find((p) => p.name === port);
  return found ? found.containerPort : Number(port);
}

function attempt(probe: Probe, c: Container, podIP: string): Promise<boolean> {
  const timeout = (probe.timeoutSeconds ?? 1) * 1000;
  return new Promise((resolve) => {
    if (probe.tcpSocket) {
      const socket = connect({ host: probe.tcpSocket.host ?? podIP, port: portOf(c, probe.tcpSocket.port), timeout });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.on('connect', () => done(true));
      socket.on('error', () => done(false));
      socket.on('timeout', () => done(false));
      return;
    }
    const get = probe.httpGet as NonNullable<Probe['httpGet']>;
    const req = request(
      { host: get.host ?? podIP, port: portOf(c, get.port), path: get.path ?? '/', timeout },
      (res) => {
        res.resume();
        // Any code from 200 to 399 is a success.
        resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 400);
      },
    );
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

export class ReadinessProber {
  ready = false;
  private timer: NodeJS.Timeout;
  private stopped = false;

  constructor(probe: Probe, c: Container, podIP: string, onChange: () => void) {
    let passes = 0;
    let failures = 0;
    const run = async () => {
      const ok = await attempt(probe, c, podIP);
      if (this.stopped) return;
      passes = ok ? passes + 1 : 0;
      failures = ok ? 0 : failures + 1;
      const before = this.ready;
      if (passes >= (probe.successThreshold ?? 1)) this.ready = true;
      if (failures >= (probe.failureThreshold ?? 3)) this.ready = false;
      if (this.ready !== before) onChange();
      this.timer = setTimeout(run, (probe.periodSeconds ?? 10) * 1000);
    };
    this.timer = setTimeout(run, (probe.initialDelaySeconds ?? 0) * 1000);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
