// Turns one received ENet packet into a typed event for the bot; anything malformed becomes null (ignored).

import { MessageType, messageType, parseText, textBody } from './messages.ts';
import { decodeTank, type Tank, TankType } from './tank.ts';
import { decodeVariants, type VariantValue } from './variant.ts';

export interface CallEvent {
  name: string;
  /** Arguments after the name (args[0] is the first real argument). */
  args: VariantValue[];
  netId: number;
  delay: number;
}

export type IncomingEvent =
  | { kind: 'hello' }
  | { kind: 'text'; type: 2 | 3; text: string; fields: Map<string, string> }
  | { kind: 'tank'; tank: Tank }
  | { kind: 'call'; call: CallEvent; tank: Tank };

/** Whether a server packet is a player's state update (a tank packet of type 0), read from two bytes. */
export function isMovement(payload: Buffer): boolean {
  return payload.length >= 5 && messageType(payload) === MessageType.tank && payload[4] === TankType.state;
}

/** Decodes a server packet; null for unknown types and anything short or inconsistent. */
export function decodeIncoming(payload: Buffer): IncomingEvent | null {
  const type = messageType(payload);
  if (type === MessageType.hello) return { kind: 'hello' };
  if (type === MessageType.text || type === MessageType.game) {
    const text = textBody(payload);
    return { kind: 'text', type, text, fields: parseText(text) };
  }
  if (type !== MessageType.tank) return null;
  const tank = decodeTank(payload);
  if (!tank) return null;
  if (tank.type !== TankType.callFunction) return { kind: 'tank', tank };
  const values = decodeVariants(tank.extended);
  const name = values?.[0];
  if (!values || typeof name !== 'string') return null;
  return { kind: 'call', call: { name, args: values.slice(1), netId: tank.netId, delay: tank.delay }, tank };
}
