// The ENet host's own thread. growtopia.js 2.2.0's service() handles at most one event per call and then
// sleeps 10 ms inside the native code (measured: 10.2 ms a call, idle or not), so calling it on the engine's
// thread would block the control API, the console and the game for most of every second. Here it may block.
import { type MessagePort, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { HostCommand, HostEvent, HostWorkerData } from './host-messages.ts';

const data = workerData as HostWorkerData;
const commands = data.commands as MessagePort;
const post = (event: HostEvent, transfer?: ArrayBuffer[]) => parentPort?.postMessage(event, transfer);

const { Host } = await import('growtopia.js');
let native: InstanceType<typeof Host>;
try {
  native = new Host('0.0.0.0', data.port, data.peerLimit, 2, false, !data.standardHeader, null, null, true, true, null);
} catch (error) {
  post({ t: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(0);
}
native.setEmitter((event: string, peer: number, _channel?: number, payload?: Buffer) => {
  if (event === 'connect') post({ t: 'connect', peer });
  else if (event === 'disconnect') post({ t: 'disconnect', peer });
  else if (event === 'raw' && payload) {
    const copy = new Uint8Array(payload);
    post({ t: 'receive', peer, data: copy }, [copy.buffer as ArrayBuffer]);
  }
});
post({ t: 'bound', port: native.port });

const peerOf = (peer: number) => {
  try {
    return native.getPeer(peer);
  } catch {
    return undefined; // gone already: the library throws for an unknown peer
  }
};

/** Applies what the engine asked for since the last turn; false once it asked us to close. */
function drain(): boolean {
  for (let m = receiveMessageOnPort(commands); m; m = receiveMessageOnPort(commands)) {
    const c = m.message as HostCommand;
    try {
      if (c.t === 'send') native.send(c.peer, Buffer.from(c.data.buffer, c.data.byteOffset, c.data.byteLength), 0);
      else if (c.t === 'disconnect') {
        const p = peerOf(c.peer);
        if (c.later) p?.disconnectLater(native, 0);
        else p?.disconnect(native, 0);
      } else if (c.t === 'close') return false;
    } catch {
      // a peer that vanished between the engine's send and this turn: nothing to do
    }
  }
  return true;
}

const IDLE_MS = 100;
for (;;) {
  if (!drain()) break;
  try {
    native.service(); // one event, then the library's own 10 ms sleep
    native.flush();
  } catch (error) {
    post({ t: 'error', message: error instanceof Error ? error.message : String(error) });
  }
  // With nobody connected the slow turn is enough to notice a connect; the engine's commands (the
  // close among them) are still read every turn.
  if (native.peerCount() === 0) await new Promise((r) => setTimeout(r, IDLE_MS));
  else await new Promise((r) => setImmediate(r));
}
native.flush();
post({ t: 'closed' });
process.exit(0);
