// startK8sStandIn: one local "cluster" (API server, Agones controller and SDK servers, one node's kubelet) for the
// kubernetes runtime driver's tests. README.md says what it emulates and what not; ADR 0042 says why.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { AgonesController } from './agones-controller.ts';
import { Api } from './api.ts';
import { handler } from './http.ts';
import { Kubelet } from './kubelet.ts';
import { logHandler } from './logs.ts';
import { PortAllocator } from './ports.ts';
import { type KubeObject, resourceTypes } from './resources.ts';
import { Store, type StoreEvent } from './store.ts';
import { Volumes } from './volumes.ts';

export interface K8sStandInOptions {
  /** The repository root: every container's working directory. */
  root: string;
  /** The kubeconfig's namespace (default "canopy"); "default" exists too. */
  namespace?: string;
  /** Host ports for Dynamic and Passthrough GameServer ports (Agones' default range is 7000-8000). */
  portRange?: [number, number];
  /** Watch history kept (events); a watch from before it gets 410 Expired. */
  historyLimit?: number;
  /** How often a watch with allowWatchBookmarks=true gets a BOOKMARK. */
  bookmarkIntervalMs?: number;
  /** First restart delay of a crashed container (restartPolicy Always / OnFailure). */
  restartBackoffMs?: number;
}

export interface K8sStandIn {
  url: string;
  /** The server's certificate (PEM), which the kubeconfig names as the CA. */
  ca: string;
  kubeconfigPath: string;
  namespace: string;
  token: string;
  /** Stored objects by resource plural ("pods", "gameservers"…), in the stand-in's namespace unless named. */
  objects: {
    get(plural: string, name: string, namespace?: string): KubeObject | undefined;
    list(plural: string, namespace?: string): KubeObject[];
  };
  /** Every request served: method, path with query, status. */
  requests: { method: string; path: string; status: number }[];
  /** Warnings sent (unknown fields dropped); a driver that sends only known fields leaves this empty. */
  warnings: string[];
  /** Signals the processes of a pod's containers (SIGKILL plays a crash; 'OOM' a SIGKILL reported as OOMKilled). */
  killProcess(podName: string, signal?: NodeJS.Signals | 'OOM', namespace?: string): void;
  /** Health pings the GameServer's SDK server has received. */
  healthPings(gameServer: string, namespace?: string): number;
  /** Kills every process it started, closes every connection, removes its directory. */
  stop(): Promise<void>;
}

/** Starts a stand-in on a free loopback port and writes a kubeconfig that points at it. */
export async function startK8sStandIn(opts: K8sStandInOptions): Promise<K8sStandIn> {
  const namespace = opts.namespace ?? 'canopy';
  const token = randomBytes(24).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'canopy-k8s-'));
  const store = new Store({ historyLimit: opts.historyLimit });
  const api = new Api(store, ['default', 'kube-system', namespace]);
  const volumes = new Volumes(api, dir);
  // 127.<random>.<1>.<n>: a network of its own per stand-in, so that two test files can each run engines on the
  // same control port at once (Linux routes all of 127/8 to lo).
  const podNetwork = `127.${16 + Math.floor(Math.random() * 230)}.1`;
  const kubelet = new Kubelet({
    api,
    volumes,
    cwd: opts.root,
    dir,
    podNetwork,
    restartBackoffMs: opts.restartBackoffMs ?? 1000,
  });
  const agones = new AgonesController(api, new PortAllocator(opts.portRange ?? [7000, 8000]));
  // Containers run in process groups of their own: a test process that exits without stop() takes them along.
  const killAll = () => {
    void kubelet.stopAll();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killAll);
  const unsubscribe = store.subscribe((event) => {
    volumes.onEvent(event);
    kubelet.onEvent(event);
    agones.onEvent(event);
    if (event.type === 'DELETED') setImmediate(() => collectGarbage(store, event));
  });

  // HTTPS with its own certificate, named in the kubeconfig as the cluster's CA: client-node refuses plain HTTP
  // unless told to skip TLS verification, and a real cluster is reached this way.
  const pems = await generate([{ name: 'commonName', value: 'kube-apiserver' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  const requests: K8sStandIn['requests'] = [];
  const server = createServer(
    { cert: pems.cert, key: pems.private },
    handler({
      api,
      token,
      logs: logHandler(store, kubelet),
      bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 10_000,
      record: (r) => requests.push(r),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfigPath = join(dir, 'kubeconfig');
  writeFileSync(kubeconfigPath, kubeconfig(url, pems.cert, token, namespace), { mode: 0o600 });

  const typeOf = (plural: string) => {
    const type = resourceTypes.find((t) => t.plural === plural);
    if (!type) throw new Error(`the stand-in has no resource "${plural}"`);
    return type;
  };
  return {
    url,
    ca: pems.cert,
    kubeconfigPath,
    namespace,
    token,
    objects: {
      get: (plural, name, ns = namespace) => store.get(typeOf(plural), ns, name),
      list: (plural, ns = namespace) => store.list(typeOf(plural), ns),
    },
    requests,
    warnings: api.warnings,
    killProcess: (podName, signal = 'SIGKILL', ns = namespace) => kubelet.kill(ns, podName, signal),
    healthPings: (name, ns = namespace) => agones.sdks.get(`${ns}/${name}`)?.server.pings ?? 0,
    async stop() {
      process.off('exit', killAll);
      unsubscribe();
      agones.stop();
      server.closeAllConnections();
      await Promise.all([new Promise((resolve) => server.close(resolve)), kubelet.stopAll()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Background cascading deletion: what the deleted object owned is deleted too (Kubernetes' garbage collector). */
function collectGarbage(store: Store, event: StoreEvent): void {
  const uid = event.object.metadata.uid;
  for (const type of resourceTypes)
    for (const object of store.list(type, event.object.metadata.namespace))
      if (object.metadata.ownerReferences?.some((r) => r.uid === uid) && !object.metadata.deletionTimestamp)
        store.delete(type, object.metadata.namespace ?? '', object.metadata.name ?? '');
}

/** A kubeconfig (JSON is YAML) with one cluster and its CA, one token user and one context with the namespace. */
function kubeconfig(server: string, ca: string, token: string, namespace: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'canopy-stand-in',
        cluster: { server, 'certificate-authority-data': Buffer.from(ca).toString('base64') },
      },
    ],
    users: [{ name: 'canopy-stand-in', user: { token } }],
    contexts: [
      { name: 'canopy-stand-in', context: { cluster: 'canopy-stand-in', user: 'canopy-stand-in', namespace } },
    ],
    'current-context': 'canopy-stand-in',
  });
}
