import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHealthPath, isWebPath, SETUP_FILES_PREFIX } from '@canopy/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isOpenApiPath } from '../openapi/paths.ts';

/**
 * Serves the built web app beside the api on one origin. Spec paths such as /items and /admin are both
 * pages and api calls, so a GET that asks for HTML (a browser navigation) gets the app and everything
 * else reaches the api. Unknown pages get the app with a 404 status (it draws the not-found page).
 */
export async function serveWeb(app: FastifyInstance, distDir: string): Promise<boolean> {
  let indexHtml: string;
  try {
    indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
  } catch {
    return false;
  }
  await app.register(fastifyStatic, { root: distDir, index: false, wildcard: false, prefix: '/' });
  // Callback style, not async: an async hook costs every request (api calls included) a promise and a turn.
  app.addHook('onRequest', (req, reply, done) => {
    if (!wantsPage(req.method, req.headers.accept, req.url)) return done();
    const path = req.url.split('?')[0] ?? '/';
    reply
      .code(isWebPath(path) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml);
  });
  return true;
}

/** A browser navigation to a page of the app, as opposed to an api call, an asset or a setup file. */
function wantsPage(method: string, accept: string | undefined, url: string) {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (!accept?.includes('text/html')) return false;
  const path = url.split('?')[0] ?? '/';
  // The setup files are plain text that a browser may open directly (a player following the guide); the probes
  // answer JSON to anyone, an operator's browser included.
  return !(
    path.startsWith('/dev-discord/') ||
    path.startsWith('/assets/') ||
    path.startsWith(SETUP_FILES_PREFIX) ||
    isHealthPath(path) ||
    isOpenApiPath(path)
  );
}
