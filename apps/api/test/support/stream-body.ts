import { request as httpRequest } from 'node:http';
import type { TestApi } from './harness.ts';

export const CHUNK = Buffer.alloc(64 * 1024, '1,');
/** Far more than any route accepts: a server that read bodies before deciding would answer 413, not 401/403. */
export const HUGE = 48 * 1024 * 1024;

/**
 * Sends `{"blocks":[1,1,1,...` chunk by chunk, without a Content-Length unless one is given (so no
 * limit can refuse it up front), and stops as soon as an answer arrives or `total` bytes are sent (then
 * it waits without ending the body). Returns the answer and how much was sent by then.
 */
export function streamBody(
  api: TestApi,
  method: string,
  path: string,
  token: string | undefined,
  total = HUGE,
  contentLength?: number,
) {
  return new Promise<{ status: number; body: { error: string; code: string }; sent: number }>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest(`${api.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(contentLength === undefined ? { 'transfer-encoding': 'chunked' } : { 'content-length': contentLength }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), sent });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < total) {
        const chunk = sent === 0 ? Buffer.concat([Buffer.from('{"blocks":['), CHUNK]) : CHUNK;
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}
