/** An engine's answer that was not a success. */
export class ControlError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Talks to one engine's control API on loopback, authenticated by the instance secret. */
export class ControlClient {
  readonly base: string;
  private readonly secret: string;
  constructor(host: string, port: number, secret: string) {
    this.base = `http://${host}:${port}`;
    this.secret = secret;
  }

  /** Sends a JSON request and returns the JSON answer; engine errors become ControlError. */
  async request<T>(method: string, path: string, body?: unknown, timeoutMs = 5000): Promise<T> {
    const res = await fetch(this.base + path, {
      method,
      headers: {
        authorization: `Bearer ${this.secret}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok) throw new ControlError(res.status, data?.error ?? `engine answered ${res.status}`);
    return data as T;
  }

  stats() {
    return this.request<{ players: number; version: string; uptime: number }>('GET', '/stats', undefined, 2000);
  }

  /**
   * Follows the engine's console (Server-Sent Events) from after `seq`; resolves when the stream ends,
   * which for a live engine means it exited or the connection broke.
   */
  async followConsole(after: number, onLine: (seq: number, line: string) => void, signal: AbortSignal) {
    const res = await fetch(`${this.base}/console/stream?after=${after}`, {
      headers: { authorization: `Bearer ${this.secret}`, accept: 'text/event-stream' },
      signal,
    });
    if (!res.ok || !res.body) throw new ControlError(res.status, 'console stream refused');
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of event.split('\n'))
          if (line.startsWith('data: ')) {
            const data = JSON.parse(line.slice(6)) as { seq: number; line: string };
            onLine(data.seq, data.line);
          }
        end = buffer.indexOf('\n\n');
      }
    }
  }
}
