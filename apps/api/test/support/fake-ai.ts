import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake provider received: its path, headers and parsed JSON body. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: tests read the provider's JSON loosely and assert on it
  body: any;
}

/**
 * How a fake provider answers: the text to reply with (once `after` settles, when given: the test decides
 * when the answer arrives), a server error, or never.
 */
export type FakeBehaviour =
  | { kind: 'reply'; text: string; after?: Promise<void> }
  | { kind: 'error'; status: number }
  | { kind: 'hang' };

/**
 * A local HTTP server speaking one provider's REST API (Gemini's generateContent or OpenAI's chat
 * completions), recording every request. `decide` picks the behaviour per request, so one server can
 * answer, fail or hang depending on the question (the e2e test uses that).
 */
export class FakeAiServer {
  readonly received: ReceivedRequest[] = [];
  url = '';
  decide: (req: ReceivedRequest) => FakeBehaviour = () => ({ kind: 'reply', text: 'Hello from the fake model.' });
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();

  readonly dialect: 'gemini' | 'openai';

  constructor(dialect: 'gemini' | 'openai') {
    this.dialect = dialect;
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The last request received (throws when there is none). */
  last(): ReceivedRequest {
    const r = this.received.at(-1);
    if (!r) throw new Error(`the fake ${this.dialect} server received no request`);
    return r;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const received: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: text ? JSON.parse(text) : null,
    };
    this.received.push(received);
    const expected =
      this.dialect === 'openai' ? /^\/v1\/chat\/completions$/ : /^\/v1beta\/models\/[^/]+:generateContent$/;
    if (req.method !== 'POST' || !expected.test(received.path)) return this.send(res, 404, { error: 'not found' });
    const behaviour = this.decide(received);
    if (behaviour.kind === 'hang') {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (behaviour.kind === 'reply' && behaviour.after) await behaviour.after;
    if (behaviour.kind === 'error')
      return this.send(res, behaviour.status, { error: { message: 'provider exploded: secret-internal-detail' } });
    this.send(res, 200, this.dialect === 'openai' ? openAiAnswer(behaviour.text) : geminiAnswer(behaviour.text));
  }

  private send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

const geminiAnswer = (text: string) => ({
  candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
});

const openAiAnswer = (text: string) => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model: 'fake',
  choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
});

/** Starts a fake provider of the given dialect. */
export const startFakeAi = (dialect: 'gemini' | 'openai') => new FakeAiServer(dialect).start();
