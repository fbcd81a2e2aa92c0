// Checks every object written against the published schemas: Kubernetes' OpenAPI for Pod, PVC and Secret (through
// kubernetes-models), and the openAPIV3Schema of Agones' GameServer CRD (a fixture taken from Agones' install.yaml,
// see README.md) with ajv, pruning unknown fields as the API server prunes them for a structural schema.
import { createRequire } from 'node:module';
import { formats } from '@kubernetes-models/validate';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { PersistentVolumeClaim, Pod, Secret } from 'kubernetes-models/v1';
import type { KubeObject, ResourceType } from './resources.ts';
import { badRequest, invalid, type StatusCause } from './status.ts';

const gameServerSchema = createRequire(import.meta.url)('./agones-gameserver.schema.json') as Schema;

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

let compiled: ValidateFunction | undefined;
function gameServerValidator(): ValidateFunction {
  if (compiled) return compiled;
  // Defaults in the schema are applied on write, as the API server does for a CRD.
  const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: true, strictRequired: false, strictTypes: false });
  for (const keyword of [
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-int-or-string',
    'x-kubernetes-list-type',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-map-type',
    'x-kubernetes-validations',
  ])
    ajv.addKeyword(keyword);
  for (const format of ['int32', 'int64', 'date-time', 'byte', 'quantity', 'int-or-string'])
    ajv.addFormat(format, formats[format] ?? true);
  compiled = ajv.compile(gameServerSchema);
  return compiled;
}

/** `/spec/ports/0/name` → `spec.ports[0].name`, the API server's way of naming a field. */
export function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

const valueAt = (object: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      object,
    );

function cause(object: unknown, error: ErrorObject): StatusCause {
  const field = fieldPath(error.instancePath);
  const value = JSON.stringify(valueAt(object, error.instancePath));
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      return {
        reason: 'FieldValueRequired',
        message: 'Required value',
        field: field ? `${field}.${missing}` : missing,
      };
    }
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v));
      return {
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${value}: supported values: ${allowed.join(', ')}`,
        field,
      };
    }
    case 'type':
      return {
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: "${typeof valueAt(object, error.instancePath)}": ${field} in body must be of type ${(error.params as { type: string }).type}: ${value}`,
        field,
      };
    default:
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${value}: ${field} in body ${error.message}`,
        field,
      };
  }
}

/**
 * Removes fields the schema does not declare (unless it preserves unknown fields) and answers their paths. The API
 * server does this to every custom object (structural pruning); by default it warns about each, and refuses the
 * write with fieldValidation=Strict.
 */
export function prune(value: unknown, schema: Schema, path: string, root = false): string[] {
  if (!value || typeof value !== 'object') return [];
  if (Array.isArray(value))
    return schema.items ? value.flatMap((v, i) => prune(v, schema.items as Schema, `${path}[${i}]`)) : [];
  const record = value as Record<string, unknown>;
  const pruned: string[] = [];
  const keepMeta = root || schema['x-kubernetes-embedded-resource'];
  for (const key of Object.keys(record)) {
    const child = `${path ? `${path}.` : ''}${key}`;
    if (keepMeta && ['apiVersion', 'kind', 'metadata'].includes(key) && !schema.properties?.[key]) continue;
    const declared = schema.properties?.[key];
    if (declared) pruned.push(...prune(record[key], declared, child));
    else if (typeof schema.additionalProperties === 'object')
      pruned.push(...prune(record[key], schema.additionalProperties, child));
    else if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.additionalProperties !== true) {
      pruned.push(child);
      delete record[key];
    }
  }
  return pruned;
}

const coreModels: Record<string, new (data: never) => { validate(): void }> = {
  Pod,
  PersistentVolumeClaim,
  Secret,
};

/**
 * Validates (and, for a GameServer, prunes and defaults) `object` in place. Answers the unknown fields dropped.
 * A JSON type error in a built-in kind is a 400 (the API server fails to decode it); every other schema violation
 * is a 422 Invalid.
 */
export function checkSchema(type: ResourceType, object: KubeObject, strict: boolean): string[] {
  const name = object.metadata?.name ?? object.metadata?.generateName ?? '';
  if (type.kind === 'GameServer') {
    const unknown = prune(object, gameServerSchema, '', true);
    if (strict && unknown.length)
      throw badRequest(
        `${type.kind}.${type.group} "${name}" is invalid: ${unknown.map((f) => `.${f}: field not declared in schema`).join(', ')}`,
      );
    const validate = gameServerValidator();
    if (!validate(object))
      throw invalid(
        type,
        name,
        (validate.errors ?? []).map((e) => cause(object, e)),
      );
    return unknown;
  }
  const Model = coreModels[type.kind];
  if (!Model) return [];
  try {
    new Model(object as never).validate();
  } catch (error) {
    const errors = ((error as { errors?: ErrorObject[] }).errors ?? []).filter((e) => e.keyword !== 'if');
    const typeError = errors.find((e) => e.keyword === 'type');
    if (typeError)
      throw badRequest(
        `${type.kind} in version "v1" cannot be handled as a ${type.kind}: json: cannot unmarshal ${typeof valueAt(object, typeError.instancePath)} into Go struct field ${fieldPath(typeError.instancePath)} of type ${(typeError.params as { type: string }).type}`,
      );
    throw invalid(
      type,
      name,
      errors.map((e) => cause(object, e)),
    );
  }
  return [];
}
