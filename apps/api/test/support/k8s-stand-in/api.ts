// The API server's write path for one request: decode, default, admission (Agones' webhooks for a GameServer),
// schema validation, then the store. The HTTP layer (http.ts) parses requests and answers with what this returns.
import { applyCoreDefaults, checkCore, checkName } from './admission.ts';
import { applyGameServerDefaults, checkGameServer } from './agones-webhook.ts';
import { applyPatch } from './patch.ts';
import { clone, type KubeObject, type ResourceType } from './resources.ts';
import { checkSchema } from './schema.ts';
import { badRequest, conflict, namespaceNotFound } from './status.ts';
import { type Store, suffix } from './store.ts';

export interface WriteOptions {
  /** fieldValidation=Strict: an unknown field is refused instead of dropped with a warning. */
  strict?: boolean;
  /** dryRun=All: everything but the store. */
  dryRun?: boolean;
  /** The write goes to the /status subresource. */
  status?: boolean;
}

export interface WriteResult {
  object: KubeObject;
  /** Warning headers: one per unknown field dropped. */
  warnings: string[];
}

export class Api {
  readonly store: Store;
  readonly namespaces: Set<string>;
  /** Every warning sent to a client, for tests to check that the driver sends no unknown field. */
  readonly warnings: string[] = [];

  constructor(store: Store, namespaces: Iterable<string>) {
    this.store = store;
    this.namespaces = new Set(namespaces);
  }

  create(type: ResourceType, namespace: string, body: unknown, opts: WriteOptions = {}): WriteResult {
    const object = this.decode(type, namespace, body);
    const meta = object.metadata;
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${suffix()}`;
    checkName(type, object);
    // Status is the system's to write: a created pod or claim starts with none.
    if (type.statusSubresource) delete object.status;
    delete meta.resourceVersion;
    applyCoreDefaults(type, object);
    if (type.kind === 'GameServer') applyGameServerDefaults(object);
    const warnings = this.validate(type, object, opts);
    if (type.kind === 'GameServer') checkGameServer(type, object);
    else checkCore(type, object);
    return { object: opts.dryRun ? object : this.store.create(type, namespace, object), warnings };
  }

  replace(type: ResourceType, namespace: string, name: string, body: unknown, opts: WriteOptions = {}): WriteResult {
    const object = this.decode(type, namespace, body);
    if (object.metadata.name !== name)
      throw badRequest(
        `the name of the object (${object.metadata.name ?? ''}) does not match the name on the URL (${name})`,
      );
    return this.write(type, object, this.store.require(type, namespace, name), opts);
  }

  patch(
    type: ResourceType,
    namespace: string,
    name: string,
    body: unknown,
    contentType: string,
    opts: WriteOptions = {},
  ): WriteResult {
    const existing = this.store.require(type, namespace, name);
    const patched = applyPatch(existing, body, contentType) as KubeObject;
    if (!patched || typeof patched !== 'object' || !patched.metadata) throw badRequest('the patch removed the object');
    if (patched.metadata.name !== name || (patched.metadata.namespace ?? namespace) !== namespace)
      throw badRequest('a patch cannot change the name or namespace of an object');
    return this.write(type, patched, existing, opts);
  }

  /** DeleteOptions: gracePeriodSeconds, and preconditions on uid and resourceVersion. */
  delete(type: ResourceType, namespace: string, name: string, options: DeleteOptions): KubeObject {
    const existing = this.store.require(type, namespace, name);
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== existing.metadata.uid) throw conflict(type, name);
    if (pre?.resourceVersion && pre.resourceVersion !== existing.metadata.resourceVersion) throw conflict(type, name);
    if (options.dryRun) return existing;
    return this.store.delete(type, namespace, name, options.gracePeriodSeconds);
  }

  /** A write by the stand-in's own controllers: checked against the schema like any other (strictly). */
  system(type: ResourceType, object: KubeObject): KubeObject {
    const unknown = checkSchema(type, object, true);
    if (unknown.length) throw new Error(`stand-in bug: unknown fields ${unknown.join(', ')}`);
    return this.store.update(type, object);
  }

  private write(type: ResourceType, input: KubeObject, existing: KubeObject, opts: WriteOptions): WriteResult {
    let object = input;
    if (opts.status) {
      // /status changes only status (and may carry a resourceVersion precondition).
      object = { ...clone(existing), status: input.status };
      object.metadata.resourceVersion = input.metadata.resourceVersion;
    } else if (type.statusSubresource) object.status = existing.status;
    object.metadata.namespace = existing.metadata.namespace;
    applyCoreDefaults(type, object);
    const warnings = this.validate(type, object, opts);
    checkCore(type, object, existing);
    return { object: opts.dryRun ? object : this.store.update(type, object), warnings };
  }

  private validate(type: ResourceType, object: KubeObject, opts: WriteOptions): string[] {
    const unknown = checkSchema(type, object, opts.strict ?? false);
    const warnings = unknown.map((field) => `unknown field "${field}"`);
    this.warnings.push(...warnings);
    return warnings;
  }

  /** The body as an object of this type: apiVersion and kind default to the URL's and must match it. */
  private decode(type: ResourceType, namespace: string, body: unknown): KubeObject {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw badRequest('the body of the request must be a JSON object');
    const object = clone(body) as KubeObject;
    object.apiVersion ??= type.apiVersion;
    object.kind ??= type.kind;
    if (object.apiVersion !== type.apiVersion || object.kind !== type.kind)
      throw badRequest(
        `the API version in the data (${object.apiVersion}) does not match the expected API version (${type.apiVersion}), or the kind (${object.kind}) is not ${type.kind}`,
      );
    object.metadata ??= {};
    if (object.metadata.namespace && object.metadata.namespace !== namespace)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    if (!this.namespaces.has(namespace)) throw namespaceNotFound(namespace);
    object.metadata.namespace = namespace;
    return object;
  }
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}
