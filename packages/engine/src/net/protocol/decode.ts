import { MAX_CLIENT_PAYLOAD, MESSAGE } from './message-types.ts';
import { decodeTank, type TankHeader } from './tank.ts';
import { decodeTextBody, type TextFields } from './text.ts';

/** A client message the engine understands. */
export type ClientMessage =
  | { kind: 'text'; fields: TextFields }
  | { kind: 'game'; fields: TextFields }
  | { kind: 'tank'; header: TankHeader; extended: Uint8Array };

/** Reads one ENet payload from a client; undefined for anything short, oversized or of an unknown type. */
export function decodeClientMessage(data: Uint8Array): ClientMessage | undefined {
  if (data.length < 4 || data.length > MAX_CLIENT_PAYLOAD) return undefined;
  const type = new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true);
  const body = data.subarray(4);
  if (type === MESSAGE.text) return { kind: 'text', fields: decodeTextBody(body) };
  if (type === MESSAGE.game) return { kind: 'game', fields: decodeTextBody(body) };
  if (type === MESSAGE.tank) {
    const tank = decodeTank(body);
    return tank && { kind: 'tank', ...tank };
  }
  return undefined;
}
