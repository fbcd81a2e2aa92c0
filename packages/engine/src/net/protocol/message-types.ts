// Message types of the first u32 of every ENet payload (docs/game-protocol.md, "Messages").
export const MESSAGE = { hello: 1, text: 2, game: 3, tank: 4 } as const;

/** Tank packet types the engine sends or reads. */
export const TANK = {
  state: 0,
  callFunction: 1,
  tileChange: 3,
  worldData: 4,
  tileDamage: 8,
  inventory: 9,
  itemsDat: 16,
  characterState: 20,
} as const;

/** Longest ENet payload a client may send us; anything larger is dropped unread. */
export const MAX_CLIENT_PAYLOAD = 8192;
