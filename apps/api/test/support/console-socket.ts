import { type ServerSocketMessage, serverSocketMessageSchema } from '@canopy/contract';
import { WebSocket } from 'ws';
import type { TestApi } from './harness.ts';
import { until } from './until.ts';

/** Opens /ws/{id}?token=… for one user and resolves once it is open, collecting every message validated with the contract's schema. */
export async function openSocket(api: Pick<TestApi, 'url'>, id: string, token: string) {
  const ws = new WebSocket(`${api.url.replace('http', 'ws')}/ws/${id}?token=${encodeURIComponent(token)}`);
  const messages: ServerSocketMessage[] = [];
  ws.on('message', (data) => messages.push(serverSocketMessageSchema.parse(JSON.parse(String(data)))));
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  return { ws, messages };
}

/**
 * A console socket of one user, subscribed (its console history arrived), collecting every message validated
 * with the contract's schema.
 */
export async function consoleOf(api: Pick<TestApi, 'url'>, id: string, token: string) {
  const { ws, messages } = await openSocket(api, id, token);
  /** The console lines received so far: the history, batches and single lines. */
  const lines = () =>
    messages.flatMap((m) =>
      m.type === 'console_history' || m.type === 'console_batch'
        ? m.payload.lines
        : m.type === 'console_log'
          ? [m.payload.line]
          : [],
    );
  /** The messages of the `error` messages received so far. */
  const errors = () => messages.flatMap((m) => (m.type === 'error' ? [m.payload.message] : []));
  ws.send(JSON.stringify({ type: 'console_subscribe' }));
  await until(() => messages.some((m) => m.type === 'console_history'), 'the console history');
  /** Sends one console command. */
  const send = (command: string) => ws.send(JSON.stringify({ type: 'console_command', payload: { command } }));
  return { ws, messages, lines, errors, send };
}
