import type { ServerResponse } from 'node:http';
import type { HttpAnswer } from './messages.ts';

const securityHeaders = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

/** A whole answer with the gateway's security headers and a content length. */
export function answer(status: number, type: string, body: string, extra: Record<string, string> = {}): HttpAnswer {
  return {
    status,
    headers: { ...securityHeaders, 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra },
    body,
  };
}

/** Writes a whole answer. */
export function writeAnswer(res: ServerResponse, a: HttpAnswer): void {
  res.writeHead(a.status, a.headers);
  res.end(a.body);
}

/** Sends a whole answer with the gateway's security headers and a content length. */
export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  writeAnswer(res, answer(status, type, body, extra));
}
