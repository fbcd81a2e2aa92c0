// A self-signed HTTPS stand-in for the gateway's server_data.php and token call, pointing at a fake front.

import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export interface StandIn {
  url: string;
  forms: URLSearchParams[];
  agents: string[];
  close: () => void;
}

/** Serves server_data.php (front on `frontPort`, loginurl = itself) and the token call (password "pw" passes). */
export async function startGatewayStandIn(frontPort: number): Promise<StandIn> {
  const pems = await generate([{ name: 'commonName', value: 'www.growtopia1.com' }], { keySize: 2048 });
  const forms: URLSearchParams[] = [];
  const agents: string[] = [];
  let host = '';
  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      agents.push(req.headers['user-agent'] ?? '');
      const form = new URLSearchParams(body);
      if (req.url === '/growtopia/server_data.php') {
        res.end(
          `server|127.0.0.1\nport|${frontPort}\ntype|1\ntype2|1\n#maint|Down for a bit\nloginurl|${host}\nmeta|m3ta\nRTENDMARKERBS1001\nignored|after`,
        );
        return;
      }
      forms.push(form);
      res.setHeader('content-type', 'application/json');
      if (req.url !== '/player/growid/login/validate' || form.get('password') !== 'pw') {
        res.statusCode = 403;
        res.end(JSON.stringify({ status: 'error', message: 'Wrong GrowID or password.' }));
        return;
      }
      res.end(JSON.stringify({ status: 'success', message: 'ok', token: 'good', url: '', accountType: 'growtopia' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `https://${host}`, forms, agents, close: () => server.close() };
}
