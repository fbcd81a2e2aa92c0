// A stand-in for the gateway's ENet front (apps/api/src/gateway/, built by another engineer): it answers a
// login text's ltoken with OnSendToServer to the engine's port, as docs/game-protocol.md step 4 says, so the
// headless client can walk its real login path into an engine. No token check: the engine does its own.
import { blankTank, encodeTank, encodeVariants, parseText, TankType } from '@canopy/gtclient';
import { Host } from 'growtopia.js';

const HELLO = Buffer.from([1, 0, 0, 0, 0, 0, 0, 0]);

/** A front on its own UDP port; `close()` stops it. */
export function startFrontStandIn(enginePort: number): { port: number; close(): void } {
  const host = new Host('0.0.0.0', 0, 16, 2, false, true, null, null, true, true, null);
  host.setEmitter((event: string, peer: number, _channel: number, data?: Buffer) => {
    if (event === 'connect') host.send(peer, HELLO, 0);
    if (event !== 'raw' || !data || data.readUInt32LE(0) !== 2) return;
    const token = parseText(data.subarray(4).toString('utf8').replace(/\0.*$/s, '')).get('ltoken') ?? '';
    const redirect = encodeTank({
      ...blankTank(TankType.callFunction),
      netId: -1,
      extended: encodeVariants([
        { type: 'string', value: 'OnSendToServer' },
        { type: 'int', value: enginePort },
        { type: 'int', value: 0 },
        { type: 'int', value: 0 },
        { type: 'string', value: `127.0.0.1|0|${token}` },
        { type: 'int', value: 1 },
        { type: 'string', value: 'player' },
      ]),
    });
    host.send(peer, redirect, 0);
    host.getPeer(peer).disconnectLater(host, 0);
  });
  // service() hands over one event and sleeps 10 ms in native code: one call a tick.
  const timer = setInterval(() => {
    try {
      host.service();
    } catch {}
  }, 1);
  return { port: host.port, close: () => clearInterval(timer) };
}
