/**
 * The gateway's ENet front as its own process (ADR 0026: a burst of logins spends this process's CPU, not the
 * panel's). The api starts it and writes one JSON line on its stdin (the gateway key travels there, never in
 * argv or the environment others can read); it prints `FRONT READY udp=<port>` once bound, and exits when
 * its stdin closes (the api is gone) or on SIGTERM.
 */

import { createInterface } from 'node:readline';
import { EnetHost } from '@canopy/enet';
import { createHostSocket } from '@canopy/enet/udp-socket';
import { Front } from './front.ts';

interface FrontStart {
  key: string;
  host: string;
  port: number;
  publicIp: string;
}

const PEER_LIMIT = 1024;
const CHANNELS = 2;

function readStart(): Promise<FrontStart> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: process.stdin });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as FrontStart);
      } catch (error) {
        reject(error);
      }
    });
    lines.once('close', () => reject(new Error('stdin closed before the start line')));
  });
}

const start = await readStart().catch((error: Error) => {
  console.error(`front: ${error.message}`);
  process.exit(2);
});
// The api going away closes our stdin: nothing else would stop this process then.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

const socket = createHostSocket();
await new Promise<void>((resolve, reject) => {
  socket.once('error', reject);
  socket.bind(start.port, start.host, () => {
    socket.off('error', reject);
    resolve();
  });
}).catch((error: Error) => {
  console.error(`front: cannot bind ${start.host}:${start.port}/udp: ${error.message}`);
  process.exit(3);
});
// Clients send the game's "new packet" header; the host answers with the standard one. Its events reach the
// front only from datagrams, so after both exist.
const host = new EnetHost(
  { socket, peerLimit: PEER_LIMIT, channelLimit: CHANNELS },
  {
    connect: (peer) => front.connected(peer, host.address(peer) ?? 'unknown', Date.now()),
    receive: (peer, data) => front.received(peer, data, Date.now()),
    disconnect: (peer) => front.disconnected(peer),
  },
);
const front = new Front({
  key: Buffer.from(start.key, 'base64'),
  publicIp: start.publicIp,
  log: (line) => console.log(`front: ${line}`),
  transport: {
    send: (peer, data) => host.send(peer, data),
    disconnectLater: (peer) => host.disconnect(peer, true),
    disconnectNow: (peer) => host.disconnectNow(peer),
  },
});
setInterval(() => front.sweep(Date.now()), 500);
process.on('SIGTERM', () => process.exit(0));
console.log(`FRONT READY udp=${host.port}`);
