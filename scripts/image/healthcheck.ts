// The container's health check (the image's HEALTHCHECK, compose.yaml's): GET one of the api's probes on this
// container's panel port and exit 0 on a 200. `node scripts/image/healthcheck.ts [/healthz|/readyz]`.
// Plain node:http, not fetch: the panel may serve HTTPS (CANOPY_TLS_CERT) with a certificate for its public name,
// which a check on loopback cannot match.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const PROBES = ['/healthz', '/readyz'];
const path = process.argv[2] ?? '/healthz';
if (!PROBES.includes(path)) {
  console.error(`healthcheck: the probe is one of ${PROBES.join(', ')}`);
  process.exit(2);
}
const port = Number(process.env.PORT || 8080);
const listen = process.env.HOST;
const host = !listen || listen === '0.0.0.0' || listen === '::' ? '127.0.0.1' : listen;
const request = process.env.CANOPY_TLS_CERT ? httpsRequest : httpRequest;

const req = request({ host, port, path, timeout: 5000, rejectUnauthorized: false }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    body += chunk;
  });
  res.on('end', () => {
    // The answer goes to the health log (docker inspect): a 503 from /readyz says why.
    console.log(`${path}: ${res.statusCode} ${body.slice(0, 500)}`);
    process.exit(res.statusCode === 200 ? 0 : 1);
  });
});
req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
req.on('error', (error) => {
  console.log(`${path}: ${error.message}`);
  process.exit(1);
});
req.end();
