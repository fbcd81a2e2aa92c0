import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * Turns contract schemas into OpenAPI 3.1 Schema Objects with zod 4's own converter (JSON Schema 2020-12,
 * the dialect OpenAPI 3.1 uses). A schema's `$defs` (recursive or reused parts) move to components.schemas
 * under a name unique in the document, since a `#/$defs/...` reference would resolve against the document root.
 */
export class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};
  private count = 0;

  /** The JSON Schema of `schema` as a request reads it ('input': before defaults and transforms) or as an answer is ('output'). */
  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    // 'any' for what JSON Schema cannot say (a transform's result, a custom check): documented as "anything"
    // rather than failing the whole document.
    const documented = io === 'input' ? shapeBehindPrecheck(schema) : schema;
    const json = z.toJSONSchema(documented, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    delete json.$schema;
    const defs = json.$defs as Record<string, JsonSchema> | undefined;
    delete json.$defs;
    if (!defs) return json;
    const prefix = `s${++this.count}_`;
    const rename = (ref: string) => ref.replace(/^#\/\$defs\//, `#/components/schemas/${prefix}`);
    for (const [name, def] of Object.entries(defs)) this.components[prefix + name] = rewriteRefs(def, rename);
    return rewriteRefs(json, rename);
  }
}

/**
 * A request schema that takes anything and checks it before its real shape (worldPutSchema: the tile count
 * against the size first, so that a huge list costs one comparison) accepts exactly what that shape accepts;
 * zod converts such a pipe's input side, which is "anything" (`{}`), so the shape behind it is documented.
 */
function shapeBehindPrecheck(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodPipe && (schema.in instanceof z.ZodUnknown || schema.in instanceof z.ZodAny))
    return shapeBehindPrecheck(schema.out as z.ZodType);
  return schema;
}

/** A copy of `node` with every `$ref` passed through `rename`. */
function rewriteRefs<T>(node: T, rename: (ref: string) => string): T {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, rename)) as T;
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === '$ref' && typeof value === 'string' ? rename(value) : rewriteRefs(value, rename);
  return out as T;
}
