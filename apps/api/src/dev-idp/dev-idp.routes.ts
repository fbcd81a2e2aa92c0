import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError, badRequest } from '../errors.ts';
import { devSignInPagePolicy } from '../http/security-headers.ts';
import { authorizePage } from './dev-idp.page.ts';
import { devUser, issueDevToken, readDevToken } from './dev-token.ts';

const PRESETS = ['alice', 'bob', 'charlie', 'admin'];
const USERNAME = /^[A-Za-z0-9_.]{2,32}$/;

/**
 * Only send tokens back to this panel: the stand-in must never hand a token to another site. This panel is
 * localhost, or the address the browser reached the stand-in at (it is served on the panel's own origin, so a
 * panel opened as http://192.168.1.10:8080 gets its sign-in back there).
 */
function checkRedirect(raw: string | undefined, requestHost: string | undefined): URL {
  let url: URL;
  try {
    url = new URL(raw ?? '');
  } catch {
    throw badRequest('redirect_uri must be an absolute URL.');
  }
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (!/^https?:$/.test(url.protocol) || !(local || url.host === requestHost?.toLowerCase()))
    throw badRequest('redirect_uri must point at this panel (the address it was opened at, or localhost).');
  return url;
}

/** A built-in stand-in for Discord's OAuth authorize page and /users/@me, for development and tests. */
export function devIdpRoutes(app: FastifyInstance, ctx: AppContext, key: string) {
  app.get('/dev-discord/oauth2/authorize', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.response_type !== 'token') throw badRequest('response_type must be token.');
    const redirect = checkRedirect(q.redirect_uri, req.headers.host);
    reply.type('text/html; charset=utf-8');
    devSignInPagePolicy(reply);
    return authorizePage({
      redirectUri: redirect.toString(),
      state: q.state ?? '',
      scope: q.scope ?? 'identify email',
      presets: PRESETS.map(devUser),
    });
  });

  app.get('/dev-discord/oauth2/approve', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const redirect = checkRedirect(q.redirect_uri, req.headers.host);
    const fragment = new URLSearchParams();
    if (q.deny) {
      fragment.set('error', 'access_denied');
      fragment.set('error_description', 'The resource owner or authorization server denied the request');
    } else {
      if (!USERNAME.test(q.username ?? '')) throw badRequest('username must be 2-32 letters, digits, _ or .');
      fragment.set('token_type', 'Bearer');
      fragment.set('access_token', issueDevToken(key, devUser(q.username ?? ''), ctx.now()));
      fragment.set('expires_in', '604800');
      fragment.set('scope', q.scope ?? 'identify email');
    }
    if (q.state) fragment.set('state', q.state);
    redirect.hash = fragment.toString();
    return reply.redirect(redirect.toString(), 302);
  });

  app.get('/dev-discord/api/users/@me', async (req) => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const user = token ? readDevToken(key, token, ctx.now()) : null;
    if (!user) throw new AppError(401, '0', '401: Unauthorized');
    return user;
  });
}
