// `kind: Status` answers, worded and coded as the API server words them (apimachinery's errors package).
import type { ResourceType } from './resources.ts';

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: StatusCause[] };
  code: number;
}

/** A request the stand-in refuses; the server answers it with its Status. */
export class StatusError extends Error {
  readonly status: Status;
  constructor(status: Status) {
    super(status.message);
    this.status = status;
  }
}

const failure = (code: number, reason: string, message: string, details?: Status['details']): StatusError =>
  new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    details,
    code,
  });

const ref = (type: ResourceType, name: string) => ({
  name,
  ...(type.group ? { group: type.group } : {}),
  kind: type.plural,
});

export const notFound = (type: ResourceType, name: string) =>
  failure(404, 'NotFound', `${type.qualified} "${name}" not found`, ref(type, name));

export const namespaceNotFound = (namespace: string) =>
  failure(404, 'NotFound', `namespaces "${namespace}" not found`, { name: namespace, kind: 'namespaces' });

export const alreadyExists = (type: ResourceType, name: string) =>
  failure(409, 'AlreadyExists', `${type.qualified} "${name}" already exists`, ref(type, name));

export const conflict = (type: ResourceType, name: string) =>
  failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${type.qualified} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    ref(type, name),
  );

export const badRequest = (message: string) => failure(400, 'BadRequest', message);

export const unauthorized = () => failure(401, 'Unauthorized', 'Unauthorized');

export const methodNotAllowed = () =>
  failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');

export const unsupportedMediaType = (contentType: string) =>
  failure(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got ${contentType})`,
  );

export const pathNotFound = () => failure(404, 'NotFound', 'the server could not find the requested resource');

/** 422 Invalid: `<Kind>[.<group>] "<name>" is invalid: <field>: <message>, …`. */
export function invalid(type: ResourceType, name: string, causes: StatusCause[]): StatusError {
  const kind = type.group ? `${type.kind}.${type.group}` : type.kind;
  const listed = causes.map((c) => `${c.field}: ${c.message}`);
  const text = listed.length === 1 ? listed[0] : `[${listed.join(', ')}]`;
  return failure(422, 'Invalid', `${kind} "${name}" is invalid: ${text}`, {
    name,
    ...(type.group ? { group: type.group } : {}),
    kind: type.kind,
    causes,
  });
}

/** The ERROR event a watch sends when the asked resourceVersion is older than the kept history. */
export const expired = (asked: string, oldest: number) =>
  failure(410, 'Expired', `too old resource version: ${asked} (${oldest})`).status;
