import { type ServerSocketMessage, serverSocketMessageSchema } from '@canopy/contract';
import { WebSocket } from 'ws';
import type { TestApi } from './harness.ts';

/** The end of a socket: its close code and reason, or the HTTP status that refused the upgrade. */
export type Outcome = { closed: number; reason: string } | { refused: number };

/** Opens /ws/{id}?token=… on one api, collecting validated messages and the outcome (a refusal is an outcome, not an error). */
export function connect(api: TestApi, id: string, token: string) {
  const ws = new WebSocket(`${api.url.replace('http', 'ws')}/ws/${id}?token=${encodeURIComponent(token)}`);
  const messages: ServerSocketMessage[] = [];
  ws.on('message', (data) => messages.push(serverSocketMessageSchema.parse(JSON.parse(String(data)))));
  ws.on('error', () => {});
  const outcome = new Promise<Outcome>((resolve) => {
    ws.once('close', (code, reason) => resolve({ closed: code, reason: String(reason) }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
  });
  return { ws, messages, outcome };
}

/** A socket opened with `connect`. */
export type Client = ReturnType<typeof connect>;

/**
 * Resolves once the api serves `c` (it answers a console_subscribe, with console_denied when the user has no
 * server), or with the outcome when the socket ends first.
 */
export async function served(c: Client): Promise<'served' | Outcome> {
  const answered = new Promise<'served'>((resolve) => {
    const subscribe = () => c.ws.send(JSON.stringify({ type: 'console_subscribe' }));
    if (c.ws.readyState === WebSocket.OPEN) subscribe();
    else c.ws.once('open', subscribe);
    const check = () => {
      if (c.messages.some((m) => m.type === 'error')) resolve('served');
    };
    check();
    c.ws.on('message', check);
  });
  return Promise.race([answered, c.outcome]);
}

/** Closes the sockets normally and waits for each to end. */
export async function closeAll(clients: Client[]) {
  for (const c of clients) c.ws.close(1000);
  await Promise.all(clients.map((c) => c.outcome));
}
