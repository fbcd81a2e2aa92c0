import { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesRuntimeConfig } from '../../config/runtime.ts';
import { KubernetesDriver } from './driver.ts';
import type { KubernetesDriverOptions } from './options.ts';

/**
 * The kubeconfig as kubectl finds it (KUBECONFIG, ~/.kube/config, or the pod's service account in a cluster) and
 * the namespace to work in: CANOPY_K8S_NAMESPACE, else the context's, else "default". Throws a message naming what
 * to set when no cluster can be found.
 */
export function loadKubeConfig(config: KubernetesRuntimeConfig): { kubeConfig: KubeConfig; namespace: string } {
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromDefault();
  } catch (error) {
    throw new Error(`CANOPY_RUNTIME=kubernetes: the kubeconfig could not be read (${(error as Error).message})`);
  }
  if (!kubeConfig.getCurrentCluster())
    throw new Error(
      'CANOPY_RUNTIME=kubernetes: no Kubernetes cluster found (set KUBECONFIG, or run the api in a pod with a service account)',
    );
  const context = kubeConfig.getContextObject(kubeConfig.getCurrentContext());
  return { kubeConfig, namespace: config.namespace ?? context?.namespace ?? 'default' };
}

/** The kubernetes driver for the api's config; the rest of its options come from the registry. */
export function kubernetesDriver(
  config: KubernetesRuntimeConfig,
  opts: Omit<KubernetesDriverOptions, 'cluster'>,
): KubernetesDriver {
  const { kubeConfig, namespace } = loadKubeConfig(config);
  return new KubernetesDriver({
    ...opts,
    cluster: {
      kubeConfig,
      namespace,
      image: config.image,
      workDir: config.workDir,
      controlPort: config.controlPort,
      gamePort: config.gamePort,
      volumeSize: config.volumeSize,
      storageClass: config.storageClass,
    },
    timeouts: { ...opts.timeouts, startMs: config.startTimeoutMs },
  });
}
