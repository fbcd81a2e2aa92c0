import { createServer, type Server } from 'node:http';
import type { DiscordUser } from '@canopy/contract';

/**
 * A local HTTP server that speaks the part of Discord's API we call (GET /users/@me), so sign-in is
 * tested over real HTTP. Tokens are registered per test; 'expired' and unknown tokens get Discord's 401.
 */
export class FakeDiscord {
  private readonly tokens = new Map<string, DiscordUser>();
  private server?: Server;
  /** When set, /users/@me answers with this status (to play an outage). */
  failWith: number | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const user = this.tokens.get(token);
      res.setHeader('content-type', 'application/json');
      if (this.failWith) {
        res.writeHead(this.failWith).end(JSON.stringify({ message: 'outage' }));
      } else if (req.method !== 'GET' || req.url !== '/users/@me') {
        res.writeHead(404).end(JSON.stringify({ message: '404: Not Found', code: 0 }));
      } else if (!user) {
        res.writeHead(401).end(JSON.stringify({ message: '401: Unauthorized', code: 0 }));
      } else {
        res.writeHead(200).end(JSON.stringify(user));
      }
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  /** Makes `token` a valid access token for `user`. */
  grant(token: string, user: DiscordUser) {
    this.tokens.set(token, user);
  }

  /** Turns a token invalid, as when it expires at Discord. */
  expire(token: string) {
    this.tokens.delete(token);
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
