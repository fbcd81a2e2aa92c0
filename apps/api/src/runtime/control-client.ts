/** An engine's answer that was not a success; `code` when the engine named one (a refused conditional save). */
export class ControlError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, message: string, code?: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The engine's error code in an error body, when it is a string. */
const codeOf = (data: unknown): string | undefined => {
  const code = (data as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

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
    if (!res.ok) throw new ControlError(res.status, data?.error ?? `engine answered ${res.status}`, codeOf(data));
    return data as T;
  }

  /**
   * Sends bytes that are JSON already and returns the answer's bytes unparsed: the api passes large bodies
   * (a whole world) between the browser and the engine without parsing them. Refusals become ControlError.
   */
  async forward(method: string, path: string, body: Uint8Array, timeoutMs = 15_000): Promise<Buffer> {
    const res = await fetch(this.base + path, {
      method,
      headers: { authorization: `Bearer ${this.secret}`, 'content-type': 'application/json' },
      // fetch takes any Uint8Array; the types only name ArrayBuffer-backed ones (a Buffer may be pooled).
      body: body as Uint8Array<ArrayBuffer>,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.ok) return bytes;
    let message = `engine answered ${res.status}`;
    let code: string | undefined;
    try {
      const data = JSON.parse(bytes.toString('utf8'));
      message = data?.error ?? message;
      code = codeOf(data);
    } catch {}
    throw new ControlError(res.status, message, code);
  }

  /**
   * Sends a request whose body and answer are bytes or streams (the file API: docs/engine-files-api.md) and
   * returns the answer of a success unread; a refusal becomes ControlError with the engine's message and code.
   */
  async send(
    method: string,
    path: string,
    opts: {
      body?: Uint8Array | ReadableStream<Uint8Array>;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    } = {},
  ): Promise<Response> {
    const stream = opts.body instanceof ReadableStream;
    const res = await fetch(this.base + path, {
      method,
      headers: {
        authorization: `Bearer ${this.secret}`,
        ...(opts.body === undefined ? {} : { 'content-type': 'application/octet-stream' }),
        ...opts.headers,
      },
      // fetch takes any Uint8Array; the types only name ArrayBuffer-backed ones (a Buffer may be pooled).
      body: opts.body as Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined,
      // A streamed body goes out as it is read (undici needs to be told it is half-duplex).
      ...(stream ? { duplex: 'half' } : {}),
      signal: opts.signal ?? AbortSignal.timeout(15_000),
    });
    if (res.ok) return res;
    const text = await res.text().catch(() => '');
    let message = `engine answered ${res.status}`;
    let code: string | undefined;
    try {
      const data = JSON.parse(text);
      message = data?.error ?? message;
      code = codeOf(data);
    } catch {}
    throw new ControlError(res.status, message, code);
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
