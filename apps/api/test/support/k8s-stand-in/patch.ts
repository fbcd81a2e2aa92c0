// PATCH bodies: JSON Patch (RFC 6902, client-node's default), JSON Merge Patch (RFC 7386), and strategic merge
// patch applied as a merge patch (lists are replaced whole, not merged by key: the one difference that matters).
import { clone } from './resources.ts';
import { badRequest, StatusError, unsupportedMediaType } from './status.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Applies `body` (already parsed) of the given Content-Type to `target`; answers the patched copy. */
export function applyPatch(target: unknown, body: unknown, contentType: string): unknown {
  const type = contentType.split(';')[0]?.trim();
  if (type === 'application/json-patch+json') return jsonPatch(target as Json, body);
  if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the patch must be a JSON object');
    return mergePatch(clone(target) as Json, body as Json);
  }
  throw unsupportedMediaType(contentType || '(none)');
}

/** RFC 7386: objects merge, null removes, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: { [key: string]: Json } = target && typeof target === 'object' && !Array.isArray(target) ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key] ?? null, value);
  }
  return out;
}

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: Json;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw badRequest(`invalid JSON pointer "${path}"`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function parentOf(doc: Json, tokens: string[], path: string): { parent: Json; last: string } {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    const next = node && typeof node === 'object' ? (node as Record<string, Json>)[token] : undefined;
    if (next === undefined)
      throw badRequest(
        `the server rejected our request due to an error in our request: doc is missing path: "${path}"`,
      );
    node = next;
  }
  return { parent: node, last: tokens[tokens.length - 1] ?? '' };
}

function read(doc: Json, path: string): Json {
  let node = doc;
  for (const token of pointer(path)) {
    const next = node && typeof node === 'object' ? (node as Record<string, Json>)[token] : undefined;
    if (next === undefined)
      throw badRequest(
        `the server rejected our request due to an error in our request: doc is missing path: "${path}"`,
      );
    node = next;
  }
  return node;
}

function put(doc: Json, path: string, value: Json, insert: boolean): Json {
  const tokens = pointer(path);
  if (tokens.length === 0) return value;
  const { parent, last } = parentOf(doc, tokens, path);
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > parent.length - (insert ? 0 : 1))
      throw badRequest(`the server rejected our request due to an error in our request: index out of range: ${last}`);
    parent.splice(index, insert ? 0 : 1, value);
  } else if (parent && typeof parent === 'object') {
    if (!insert && !(last in parent))
      throw badRequest(
        `the server rejected our request due to an error in our request: replace operation does not apply: doc is missing key: ${path}`,
      );
    parent[last] = value;
  } else
    throw badRequest(`the server rejected our request due to an error in our request: doc is missing path: "${path}"`);
  return doc;
}

function removeAt(doc: Json, path: string): Json {
  const tokens = pointer(path);
  const { parent, last } = parentOf(doc, tokens, path);
  if (Array.isArray(parent) && Number(last) < parent.length) parent.splice(Number(last), 1);
  else if (parent && typeof parent === 'object' && !Array.isArray(parent) && last in parent) delete parent[last];
  else
    throw badRequest(
      `the server rejected our request due to an error in our request: remove operation does not apply: doc is missing path: "${path}"`,
    );
  return doc;
}

function jsonPatch(target: Json, body: unknown): Json {
  if (!Array.isArray(body)) throw badRequest('json patch must be an array of operations');
  let doc = clone(target);
  for (const op of body as Operation[]) {
    const value = clone(op.value as Json);
    switch (op.op) {
      case 'add':
        doc = put(doc, op.path, value, true);
        break;
      case 'replace':
        doc = put(doc, op.path, value, false);
        break;
      case 'remove':
        doc = removeAt(doc, op.path);
        break;
      case 'move': {
        const moved = read(doc, op.from ?? '');
        doc = put(removeAt(doc, op.from ?? ''), op.path, moved, true);
        break;
      }
      case 'copy':
        doc = put(doc, op.path, clone(read(doc, op.from ?? '')), true);
        break;
      case 'test':
        if (JSON.stringify(read(doc, op.path)) !== JSON.stringify(op.value))
          throw new StatusError({
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: `the server rejected our request due to an error in our request: testing value ${op.path} failed`,
            reason: 'Invalid',
            code: 422,
          });
        break;
      default:
        throw badRequest(`Unexpected kind: ${String(op.op)}`);
    }
  }
  return doc;
}
