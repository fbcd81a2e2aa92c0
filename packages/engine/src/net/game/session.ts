import type { AutofarmState } from './autofarm.ts';
import type { LiveWorld } from './live-worlds.ts';
import type { RateWindow } from './rate.ts';

/** One connected ENet peer and what the game knows of it. */
export interface Session {
  peer: number;
  /** The game's id of this player in worlds (OnSpawn netID); unique for the engine's life. */
  netId: number;
  /** The GrowID, once logged in. */
  name?: string;
  /** The two-letter country the client named at login (`country|`), shown by its flag; `us` otherwise. */
  country: string;
  /** The player's id in the Player Database, once logged in. */
  userId: number;
  /** Disconnects a peer that has not logged in in time (a peer slot is not held by a silent client). */
  loginTimer?: NodeJS.Timeout;
  /** Set once a login was tried: one login per peer. */
  loginTried: boolean;
  /** Set once items.dat was sent: a client asking again gets nothing (a megabyte per ask would be a free amplifier). */
  itemsSent?: boolean;
  world?: LiveWorld;
  /** The last position the server accepted (movement.ts): what the reach of punches and placing is measured from. */
  x: number;
  y: number;
  /** When that position was accepted (or set by the server: a spawn). */
  movedAt: number;
  /** Pixels the player may still move (movement.ts, takeMove). */
  moveBudget: number;
  /** Times of the recent chat lines (rate.ts, CHAT_LINES). */
  chatTimes: number[];
  /** Times of the recent in-game commands (rate.ts, COMMAND_LINES). */
  commandTimes: number[];
  inventory: [number, number][];
  rate: RateWindow;
  /** On while the player farms automatically (autofarm.ts, /autofarm). */
  autofarm?: AutofarmState;
  /** True once we decided to disconnect it: later packets are ignored. */
  closing: boolean;
}
