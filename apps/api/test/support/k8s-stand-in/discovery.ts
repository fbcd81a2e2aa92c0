// /version, /api, /apis and the resource lists: enough discovery for client-node (KubernetesObjectApi looks
// resources up in /api/v1 and /apis/<group>/<version>).
import { resourceTypes, verbs } from './resources.ts';

export const KUBERNETES_VERSION = { major: '1', minor: '33' };

/** The answer for a discovery path, or undefined when the path is not one. */
export function discovery(path: string, serverAddress: string): unknown {
  switch (path) {
    case '/version':
      return {
        ...KUBERNETES_VERSION,
        gitVersion: `v${KUBERNETES_VERSION.major}.${KUBERNETES_VERSION.minor}.0-canopy-stand-in`,
        gitCommit: '0000000000000000000000000000000000000000',
        gitTreeState: 'clean',
        buildDate: '2026-01-01T00:00:00Z',
        goVersion: 'go1.24.0',
        compiler: 'gc',
        platform: 'linux/amd64',
      };
    case '/api':
      return {
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
      };
    case '/apis':
      return { kind: 'APIGroupList', apiVersion: 'v1', groups: [agonesGroup] };
    case '/apis/agones.dev':
      return { kind: 'APIGroup', apiVersion: 'v1', ...agonesGroup };
    case '/api/v1':
      return resourceList('', 'v1');
    case '/apis/agones.dev/v1':
      return resourceList('agones.dev', 'agones.dev/v1');
    default:
      return undefined;
  }
}

const agonesGroup = {
  name: 'agones.dev',
  versions: [{ groupVersion: 'agones.dev/v1', version: 'v1' }],
  preferredVersion: { groupVersion: 'agones.dev/v1', version: 'v1' },
};

function resourceList(group: string, groupVersion: string) {
  const resources = resourceTypes
    .filter((t) => t.group === group)
    .flatMap((t) => [
      {
        name: t.plural,
        singularName: t.singular,
        namespaced: true,
        kind: t.kind,
        verbs,
        ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
      },
      ...(t.statusSubresource
        ? [
            {
              name: `${t.plural}/status`,
              singularName: '',
              namespaced: true,
              kind: t.kind,
              verbs: ['get', 'patch', 'update'],
            },
          ]
        : []),
      ...(t.kind === 'Pod'
        ? [{ name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] }]
        : []),
    ]);
  if (group === '')
    resources.push({
      name: 'namespaces',
      singularName: 'namespace',
      namespaced: false,
      kind: 'Namespace',
      verbs: ['get', 'list'],
    });
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources };
}
