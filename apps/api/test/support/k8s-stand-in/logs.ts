// GET /api/v1/namespaces/{ns}/pods/{name}/log: the container's output (tailLines, timestamps, previous, follow).
import type { ServerResponse } from 'node:http';
import { LogBuffer, type LogLine } from './container.ts';
import type { Kubelet } from './kubelet.ts';
import { resourceType } from './resources.ts';
import { badRequest } from './status.ts';
import type { Store } from './store.ts';

const pods = resourceType('', 'pods') as NonNullable<ReturnType<typeof resourceType>>;

/** The pods/log handler over the kubelet's log buffers. */
export function logHandler(store: Store, kubelet: Kubelet) {
  return (namespace: string, name: string, query: URLSearchParams, res: ServerResponse) => {
    const pod = store.require(pods, namespace, name);
    const container = query.get('container') ?? undefined;
    const found = kubelet.log(namespace, name, container, query.get('previous') === 'true');
    if (Array.isArray(found))
      throw badRequest(
        container
          ? `container ${container} is not valid for pod ${name}`
          : `a container name must be specified for pod ${name}, choose one of: [${found.join(' ')}]`,
      );
    if (!found) {
      if (query.get('previous') === 'true')
        throw badRequest(`previous terminated container in pod "${name}" not found`);
      throw badRequest(
        `container "${container ?? pod.spec.containers?.[0]?.name}" in pod "${name}" is waiting to start: ContainerCreating`,
      );
    }
    const tail = query.get('tailLines');
    const format = (line: LogLine) => `${query.get('timestamps') === 'true' ? `${line.time} ` : ''}${line.text}\n`;
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    for (const line of found.tail(tail === null ? undefined : Number(tail))) res.write(format(line));
    if (query.get('follow') !== 'true' || !(found instanceof LogBuffer)) return void res.end();
    // follow: stream new lines until this run of the container ends or the client goes.
    let unsubscribe = () => {};
    const stop = () => {
      unsubscribe();
      if (!res.writableEnded) res.end();
    };
    unsubscribe = found.subscribe((line) => res.write(format(line)), stop);
    res.on('close', stop);
  };
}
