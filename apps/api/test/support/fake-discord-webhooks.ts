import { createServer, type Server } from 'node:http';

/** One POST a webhook received. */
export interface WebhookPost {
  path: string;
  query: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read Discord's JSON body loosely and assert on it
  body: any;
}

/** A scripted answer: a status, Discord's JSON body, and headers (Retry-After). */
export interface WebhookAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A local HTTP server that speaks Discord's execute-webhook call (POST /api/webhooks/<id>/<token>, JSON body, 204 or
 * with ?wait=true 200 and the message). Each webhook answers from its script first (429, 500…), then 204.
 */
export class FakeDiscordWebhooks {
  readonly posts: WebhookPost[] = [];
  private readonly scripts = new Map<string, WebhookAnswer[]>();
  private server?: Server;
  url = '';

  /** The base a panel must be allowed (CANOPY_ALERT_WEBHOOK_BASE). */
  get base() {
    return `${this.url}/api/webhooks/`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const [path = '', query = ''] = (req.url ?? '').split('?');
        res.setHeader('content-type', 'application/json');
        if (req.method !== 'POST' || !/^\/api\/webhooks\/\d+\/[\w-]+$/.test(path)) {
          res.writeHead(404).end(JSON.stringify({ message: 'Unknown Webhook', code: 10015 }));
          return;
        }
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          res.writeHead(400).end(JSON.stringify({ message: 'Cannot send an empty message', code: 50006 }));
          return;
        }
        this.posts.push({ path, query, body });
        const answer = this.scripts.get(path)?.shift();
        if (answer) {
          res.writeHead(answer.status, answer.headers).end(JSON.stringify(answer.body ?? { message: 'scripted' }));
        } else if (query.includes('wait=true')) {
          res.writeHead(200).end(JSON.stringify({ id: String(this.posts.length), ...(body as object) }));
        } else {
          res.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  /** A webhook URL on this server (a fresh id per test keeps their posts and rate limits apart). */
  webhook(id: number | string): string {
    return `${this.base}${id}/${'t'.repeat(30)}-${id}`;
  }

  /** Makes the webhook at `url` answer these first, in order. */
  script(url: string, answers: WebhookAnswer[]) {
    this.scripts.set(new URL(url).pathname, answers);
  }

  /** The posts the webhook at `url` received. */
  postsTo(url: string): WebhookPost[] {
    const path = new URL(url).pathname;
    return this.posts.filter((p) => p.path === path);
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
