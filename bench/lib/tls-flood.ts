// Worker thread of bench/connection-flood.ts: opens TLS connections to a port as fast as `lanes` parallel loops
// can for a while, each closed as soon as it is secure, and posts back how many were tried, completed and refused.
import { connect as tcpConnect } from 'node:net';
import { connect } from 'node:tls';
import { parentPort, workerData } from 'node:worker_threads';

const { port, ms, lanes, localAddress } = workerData as {
  port: number;
  ms: number;
  lanes: number;
  localAddress: string;
};
const end = performance.now() + ms;
let tried = 0;
let secure = 0;
let refused = 0;

const once = () =>
  new Promise<void>((resolve) => {
    tried++;
    // node:tls takes no source address: the TCP socket is made with one and handed to it.
    const socket = connect({
      socket: tcpConnect({ host: '127.0.0.1', port, localAddress }),
      rejectUnauthorized: false,
    });
    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      if (ok) secure++;
      else refused++;
      socket.destroy();
      resolve();
    };
    socket.once('secureConnect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
  });

await Promise.all(
  Array.from({ length: lanes }, async () => {
    while (performance.now() < end) await once();
  }),
);
parentPort?.postMessage({ tried, secure, refused });
