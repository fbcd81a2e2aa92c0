import type { ServerResponse } from 'node:http';

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

/** Sends a whole answer with the gateway's security headers and a content length. */
export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  const bytes = Buffer.from(body);
  res.writeHead(status, { ...securityHeaders, 'content-type': type, 'content-length': bytes.length, ...extra });
  res.end(bytes);
}
