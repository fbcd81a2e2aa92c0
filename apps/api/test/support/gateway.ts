import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { LOGIN_ERROR_HEADER } from '../../src/gateway/http/login-handlers.ts';
import type { TestApi } from './harness.ts';

/** The env that turns the gateway on for a test api, on free ports. */
export const GATEWAY_ENV = {
  CANOPY_GATEWAY: 'on',
  CANOPY_GATEWAY_TLS_PORT: '0',
  CANOPY_GATEWAY_UDP_PORT: '0',
  CANOPY_PUBLIC_IP: '127.0.0.1',
  // Suites open a TLS connection per request from one address; the handshake tests set their own small limits.
  CANOPY_GATEWAY_HANDSHAKE_BURST: '100000',
};

/** The running gateway's bound ports. */
export function gatewayPorts(api: TestApi): { tlsPort: number; udpPort: number } {
  const gateway = api.ctx.gateway;
  if (!gateway) throw new Error('this api runs no gateway (start it with GATEWAY_ENV)');
  return { tlsPort: gateway.tlsPort, udpPort: gateway.udpPort };
}

/** The certificate the api generated for its gateway (the client trusts only it). */
export const generatedCert = (api: TestApi) =>
  readFileSync(join(api.ctx.config.dataDir, 'gateway-tls', 'cert.pem'), 'utf8');

export interface GatewayAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The certificate the server presented (DER, base64). */
  peerCert: string;
}

/** One HTTPS request to the gateway, trusting `ca` (the generated certificate unless given). */
export function gatewayRequest(
  api: TestApi,
  method: string,
  path: string,
  opts: { body?: string; headers?: Record<string, string>; ca?: string } = {},
): Promise<GatewayAnswer> {
  const { tlsPort } = gatewayPorts(api);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: tlsPort,
        method,
        path,
        ca: opts.ca ?? generatedCert(api),
        // Checked against the certificate's names whatever Host header a test sends.
        servername: 'localhost',
        headers: {
          ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}),
          ...opts.headers,
        },
        agent: false,
      },
      (res) => {
        const peerCert = (res.socket as TLSSocket).getPeerCertificate().raw;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            peerCert: peerCert?.toString('base64') ?? '',
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/**
 * One of the login page's token calls (validate by default; checktoken with `path`), as a form post (what the
 * page's form sends) or JSON. Success is JSON (`body`); a refusal is the HTML page (`html`) with its code in
 * x-canopy-error (`code`).
 */
export async function gatewayLogin(
  api: TestApi,
  fields: Record<string, string>,
  as: 'form' | 'json' = 'form',
  path = '/player/growid/login/validate',
) {
  const body = as === 'form' ? new URLSearchParams(fields).toString() : JSON.stringify(fields);
  const res = await gatewayRequest(api, 'POST', path, {
    body,
    headers: { 'content-type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' },
  });
  const json = /^application\/json/.test(String(res.headers['content-type']));
  return {
    status: res.status,
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them
    body: (json ? JSON.parse(res.text) : undefined) as any,
    html: json ? undefined : res.text,
    code: res.headers[LOGIN_ERROR_HEADER] as string | undefined,
    headers: res.headers,
  };
}

/** A saved sign-in: POST /player/growid/checktoken with the last token (as the client sends it, a form). */
export const gatewayCheckToken = (
  api: TestApi,
  refreshToken: string,
  clientData = 'tankIDName|\nrequestedName|Sprout',
) => gatewayLogin(api, { refreshToken, clientData }, 'form', '/player/growid/checktoken');

/** The error a refused sign-in's page shows, read back from its alert paragraph (unescaped). */
export function pageError(html: string | undefined): string | undefined {
  const m = /<p class="error" role="alert">([^<]*)<\/p>/.exec(html ?? '');
  return m?.[1]
    ?.replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
