import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/** A Checkout Session as the stand-in stored it: the form fields it was created with. */
export interface FakeSession {
  id: string;
  url: string;
  form: Record<string, string>;
}

/**
 * A local HTTP server that speaks the part of Stripe's API the panel calls (POST /v1/checkout/sessions,
 * form-encoded, Bearer secret key), with Stripe's Idempotency-Key rule: a repeated key answers the first
 * session. Bad keys get Stripe's 401 shape; `failWith` plays an outage.
 */
export class FakeStripe {
  readonly sessions: FakeSession[] = [];
  private readonly byKey = new Map<string, FakeSession>();
  private server?: Server;
  failWith: number | null = null;
  url = '';

  private readonly secretKey: string;

  constructor(secretKey: string) {
    this.secretKey = secretKey;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        const send = (status: number, body: unknown) => res.writeHead(status).end(JSON.stringify(body));
        if (this.failWith) return send(this.failWith, { error: { type: 'api_error', message: 'outage' } });
        if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions')
          return send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
        if (req.headers.authorization !== `Bearer ${this.secretKey}`)
          return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
        const key = req.headers['idempotency-key'];
        const earlier = typeof key === 'string' ? this.byKey.get(key) : undefined;
        if (earlier) return send(200, this.answer(earlier));
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const id = `cs_test_${randomBytes(12).toString('hex')}`;
        const session = { id, url: `${this.url}/c/pay/${id}`, form };
        this.sessions.push(session);
        if (typeof key === 'string') this.byKey.set(key, session);
        send(200, this.answer(session));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  /** The session object as Stripe answers it (the fields the panel and the webhook read). */
  answer(s: FakeSession) {
    return {
      id: s.id,
      object: 'checkout.session',
      mode: s.form.mode,
      url: s.url,
      client_reference_id: s.form.client_reference_id ?? null,
      currency: s.form['line_items[0][price_data][currency]'],
      amount_total: Number(s.form['line_items[0][price_data][unit_amount]']),
      metadata: { credits: s.form['metadata[credits]'], packId: s.form['metadata[packId]'] },
      payment_status: 'unpaid',
      success_url: s.form.success_url,
      cancel_url: s.form.cancel_url,
    };
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
