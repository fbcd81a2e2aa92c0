// What a container is started with: its environment (values, secretKeyRef, fieldRef, envFrom) and its command line
// with Kubernetes' $(VAR) expansion, plus the stand-in's rewrites that play the part of the pod's network namespace
// and mounts on one host (see README.md).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from './resources.ts';

/** A container spec as far as the kubelet reads it. */
export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string; optional?: boolean };
      fieldRef?: { fieldPath: string };
      configMapKeyRef?: unknown;
      resourceFieldRef?: unknown;
    };
  }[];
  envFrom?: { secretRef?: { name: string; optional?: boolean }; prefix?: string; configMapRef?: unknown }[];
  volumeMounts?: { name: string; mountPath: string; subPath?: string }[];
  ports?: { containerPort: number; name?: string; protocol?: string; hostPort?: number }[];
  resources?: { limits?: { memory?: string }; requests?: { memory?: string } };
}

/** Why a container cannot be started (the kubelet's CreateContainerConfigError). */
export class ConfigError extends Error {}

export type SecretLookup = (name: string) => Record<string, string> | undefined;

const fieldValue = (pod: KubeObject, podIP: string, path: string): string => {
  const label = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (label) return (label[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations)?.[label[2] ?? ''] ?? '';
  const values: Record<string, string | undefined> = {
    'metadata.name': pod.metadata.name,
    'metadata.namespace': pod.metadata.namespace,
    'metadata.uid': pod.metadata.uid,
    'spec.nodeName': pod.spec?.nodeName,
    'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.podIP': podIP,
    'status.hostIP': '127.0.0.1',
  };
  if (!(path in values)) throw new ConfigError(`unsupported fieldRef fieldPath "${path}"`);
  return values[path] ?? '';
};

/** $(NAME) becomes NAME's value when defined; $$(NAME) stays $(NAME) (Kubernetes' expansion rules). */
export function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name?: string) =>
    whole === '$$' ? '$' : name !== undefined && name in env ? (env[name] as string) : whole,
  );
}

/**
 * The container's environment, in order, as the kubelet builds it: envFrom first, then env (later wins), each
 * value expanded against those before it. A missing secret or key (not optional) is a ConfigError.
 */
export function containerEnv(
  pod: KubeObject,
  c: Container,
  podIP: string,
  secret: SecretLookup,
): Record<string, string> {
  const env: Record<string, string> = {};
  const secretData = (name: string, optional: boolean | undefined) => {
    const data = secret(name);
    if (!data && !optional) throw new ConfigError(`secret "${name}" not found`);
    return data;
  };
  for (const from of c.envFrom ?? []) {
    if (!from.secretRef) throw new ConfigError('the stand-in resolves envFrom secretRef only');
    const data = secretData(from.secretRef.name, from.secretRef.optional) ?? {};
    for (const [key, value] of Object.entries(data))
      env[`${from.prefix ?? ''}${key}`] = Buffer.from(value, 'base64').toString();
  }
  for (const variable of c.env ?? []) {
    const from = variable.valueFrom;
    if (!from) env[variable.name] = expand(variable.value ?? '', env);
    else if (from.secretKeyRef) {
      const { name, key, optional } = from.secretKeyRef;
      const data = secretData(name, optional);
      const value = data?.[key];
      if (value === undefined && !optional)
        throw new ConfigError(`couldn't find key ${key} in Secret ${pod.metadata.namespace}/${name}`);
      if (value !== undefined) env[variable.name] = Buffer.from(value, 'base64').toString();
    } else if (from.fieldRef) env[variable.name] = fieldValue(pod, podIP, from.fieldRef.fieldPath);
    else throw new ConfigError(`the stand-in resolves env valueFrom secretKeyRef and fieldRef only (${variable.name})`);
  }
  // Stand-in: POD_IP is the pod's address whatever it was set to (a cluster would use fieldRef status.podIP).
  if ('POD_IP' in env) env.POD_IP = podIP;
  return env;
}

export interface Rewrites {
  /** mountPath → local directory, longest first. */
  mounts: [string, string][];
  podIP: string;
  /** containerPort → the host port Agones allocated (Dynamic/Static port forwarding). */
  ports: Map<number, number>;
}

/**
 * Plays the pod's mounts and network on one host: a value that is a mountPath, or lies under one, points into that
 * volume's local directory; `0.0.0.0` becomes the pod's IP (so a server "listening on all interfaces" listens on
 * its own address); an argument or env value that is a game containerPort (`7777`, `--flag=7777`)
 * becomes its host port.
 */
export function rewrite(value: string, r: Rewrites): string {
  let out = value;
  for (const [mountPath, dir] of r.mounts) {
    if (out === mountPath || out.startsWith(`${mountPath}/`)) {
      out = dir + out.slice(mountPath.length);
      break;
    }
    const flag = out.indexOf(`=${mountPath}`);
    if (flag >= 0 && (out.length === flag + 1 + mountPath.length || out[flag + 1 + mountPath.length] === '/')) {
      out = out.slice(0, flag + 1) + dir + out.slice(flag + 1 + mountPath.length);
      break;
    }
  }
  out = out.replace(/(^|[=/@:])0\.0\.0\.0(?=$|[:/])/g, `$1${r.podIP}`);
  const port = /^(.*=)?(\d{1,5})$/.exec(out);
  const host = port && r.ports.get(Number(port[2]));
  if (port && host !== undefined) out = `${port[1] ?? ''}${host}`;
  return out;
}

/**
 * The command line and environment a container starts with: only `node` runs (as this Node), envs resolved, $(VAR)
 * expanded, then rewritten for this host (mounts, pod IP, host ports). The environment is the container's own plus
 * PATH, HOME (a directory of the pod) and HOSTNAME, nothing inherited from the tests.
 */
export function startSpec(
  pod: KubeObject,
  c: Container,
  at: { ip: string; home: string; volumes: Map<string, string>; secret: SecretLookup },
): { args: string[]; env: Record<string, string> } {
  if (c.command?.[0] !== 'node')
    throw new ConfigError(
      `container "${c.name}": the stand-in runs only command ["node", ...] (got ${JSON.stringify(c.command ?? null)})`,
    );
  const env = containerEnv(pod, c, at.ip, at.secret);
  const mounts = (c.volumeMounts ?? [])
    .map((m): [string, string] => [m.mountPath.replace(/\/$/, ''), join(at.volumes.get(m.name) ?? '', m.subPath ?? '')])
    .sort((a, b) => b[0].length - a[0].length);
  const ports = new Map<number, number>();
  for (const p of c.ports ?? []) if (p.hostPort) ports.set(p.containerPort, p.hostPort);
  const r = { mounts, podIP: at.ip, ports };
  for (const [k, v] of Object.entries(env)) env[k] = rewrite(v, r);
  const args = [...c.command.slice(1), ...(c.args ?? [])].map((a) => rewrite(expand(a, env), r));
  for (const [, dir] of mounts) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return {
    args,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: at.home,
      HOSTNAME: pod.spec.hostname ?? pod.metadata.name ?? '',
      ...env,
    },
  };
}
