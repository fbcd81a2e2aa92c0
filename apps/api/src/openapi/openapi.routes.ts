import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import { route } from '../http/route.ts';
import { buildOpenApiDocument } from './document.ts';
import { openApiPaths } from './paths.ts';
import { declaredRoutes } from './registry.ts';

/** Per client IP: the document is a few hundred KB, cheap once built, but no reason to serve it in a loop. */
const DOCS_RATE_LIMIT = { max: 120, windowMs: 60_000 };

const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Canopy API</title>
<link rel="stylesheet" href="${openApiPaths.docs}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${openApiPaths.docs}/swagger-ui-bundle.js"></script>
<script src="${openApiPaths.docs}/start.js"></script>
</body>
</html>
`;

// A file of its own, not an inline script: the page's policy allows scripts from this origin only.
const startScript = `window.ui = SwaggerUIBundle({ url: '${openApiPaths.document}', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });\n`;

/** The renderer's files, streamed from the installed swagger-ui-dist (never held in memory). */
const rendererFiles: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

const version = () =>
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** GET /openapi.json (generated from the declared routes on first use, then kept) and the docs page at /api-docs. */
export function openApiRoutes(app: FastifyInstance, ctx: AppContext) {
  // Built on the first request, not at boot: an idle panel that nobody asks for its document does not hold it.
  let document: string | undefined;
  route(app, ctx, {
    method: 'GET',
    url: openApiPaths.document,
    access: 'public',
    summary: 'This OpenAPI 3.1 document',
    response: { mediaType: 'application/json' },
    rateLimit: { perIp: DOCS_RATE_LIMIT },
    handler: async ({ reply }) => {
      document ??= JSON.stringify(buildOpenApiDocument(declaredRoutes(ctx), version()));
      return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document);
    },
  });

  // The page and its files are not api calls (no session, no JSON), hence app.get rather than route(); they are
  // listed in excluded.ts.
  const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const page = (reply: FastifyReply, type: string, body: string) =>
    reply.type(type).header('cache-control', 'no-cache').send(body);
  // Under the panel's own CSP: Swagger UI needs no inline script or style element, no eval and nothing remote
  // (tests/e2e/api-docs.test.ts watches for violations).
  app.get(openApiPaths.docs, (_req, reply) => page(reply, 'text/html; charset=utf-8', docsPage));
  app.get(`${openApiPaths.docs}/start.js`, (_req, reply) =>
    page(reply, 'application/javascript; charset=utf-8', startScript),
  );
  for (const [file, type] of Object.entries(rendererFiles))
    app.get(`${openApiPaths.docs}/${file}`, (_req, reply) =>
      reply
        .type(type)
        .header('cache-control', 'public, max-age=3600')
        .send(createReadStream(join(distDir, file))),
    );
}
