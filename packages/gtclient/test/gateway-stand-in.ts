// A self-signed HTTPS stand-in for the gateway's server_data.php and token call, pointing at a fake front.

import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export interface StandIn {
  url: string;
  forms: URLSearchParams[];
  /** Raw request bodies, in order. */
  bodies: string[];
  agents: string[];
  close: () => void;
}

/** Serves server_data.php (front on `frontPort`, loginurl = itself) and the token call (password "pw" passes). */
export async function startGatewayStandIn(frontPort: number): Promise<StandIn> {
  const pems = await generate([{ name: 'commonName', value: 'www.growtopia1.com' }], { keySize: 2048 });
  const forms: URLSearchParams[] = [];
  const bodies: string[] = [];
  const agents: string[] = [];
  let host = '';
  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      agents.push(req.headers['user-agent'] ?? '');
      bodies.push(body);
      const form = new URLSearchParams(body);
      if (req.url === '/growtopia/server_data.php') {
        res.end(
          `server|127.0.0.1\nport|${frontPort}\ntype|1\ntype2|1\n#maint|Down for a bit\nloginurl|${host}\nmeta|m3ta\nRTENDMARKERBS1001\nignored|after`,
        );
        return;
      }
      forms.push(form);
      const success = (token: string) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            status: 'success',
            message: 'Account Validated.',
            token,
            url: '',
            accountType: 'growtopia',
          }),
        );
      };
      // Failures are the login page again with the error in it, as the references answer (login-gurotopia's form).
      const failure = (message: string) => {
        res.statusCode = 200;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          `<!doctype html><html><head><title>Sign in</title></head><body><h1>Sign in</h1><div class="text-danger text-danger-wrapper"><ul><li>${message}</li></ul></div><div class="row div-content-center"><form method="post"><input name="growId"></form></div></body></html>`,
        );
      };
      if (req.url === '/player/growid/checktoken') {
        if (form.get('refreshToken') === 'good' && form.has('clientData')) success('fresh');
        else failure('Your saved sign-in has expired &amp; must be entered again.');
        return;
      }
      if (req.url === '/player/growid/login/validate' && form.get('password') === 'json-refusal') {
        res.statusCode = 403;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ status: 'error', message: 'Too many attempts.' }));
        return;
      }
      if (req.url !== '/player/growid/login/validate' || form.get('password') !== 'pw') {
        failure('Wrong GrowID or password.');
        return;
      }
      success('good');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `https://${host}`, forms, bodies, agents, close: () => server.close() };
}
