import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isWebPath, SETUP_FILES_PREFIX } from '@canopy/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

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
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return;
    if (!req.headers.accept?.includes('text/html')) return;
    const path = req.url.split('?')[0] ?? '/';
    // The setup files are plain text that a browser may open directly (a player following the guide).
    if (path.startsWith('/dev-discord/') || path.startsWith('/assets/') || path.startsWith(SETUP_FILES_PREFIX)) return;
    return reply
      .code(isWebPath(path) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml);
  });
  return true;
}
