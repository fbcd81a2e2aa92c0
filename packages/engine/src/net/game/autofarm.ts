import { ITEM } from '../../items/item-ids.ts';
import type { Session } from './session.ts';

/**
 * The least time between two automated farm actions, whatever the server config says (0 is allowed there): a
 * timer per farming player must not spin.
 */
export const MIN_AUTOFARM_DELAY_MS = 100;

/** A player's autofarm: the tile it works on and the block it puts back. */
export interface AutofarmState {
  target?: { x: number; y: number; block: number };
  timer?: NodeJS.Timeout;
}

interface AutofarmParts {
  /** serverConfig.autofarmDelay in force (read at every action, so a reload applies at once). */
  delayMs(): number;
  /** The tile's layers in the player's world; undefined outside it. */
  tileAt(s: Session, x: number, y: number): { fg: number; bg: number } | undefined;
  holds(s: Session, itemId: number): boolean;
  /** A punch (item 18) or a placement, checked as the player's own would be; false when refused. */
  act(s: Session, x: number, y: number, itemId: number): Promise<boolean>;
  consoleMessage(s: Session, text: string): void;
}

/**
 * Autofarm (the Server Settings card's "Autofarm Delay"): once a player turns it on (/autofarm) and punches a
 * tile, the server punches that tile for them every delay, and puts the block back when it broke and they hold
 * one, as farming by hand would. Each action goes through the same checks as a player's (reach, inventory,
 * unbreakable tiles); it stops when one is refused, when the player leaves the world or turns it off.
 */
export function createAutofarm(parts: AutofarmParts) {
  const delay = () => Math.max(MIN_AUTOFARM_DELAY_MS, parts.delayMs());

  const stop = (s: Session, why?: string) => {
    if (!s.autofarm) return;
    clearTimeout(s.autofarm.timer);
    s.autofarm = undefined;
    if (why) parts.consoleMessage(s, `\`oAutofarm stopped:\`\` ${why}`);
  };

  const tick = async (s: Session) => {
    const farm = s.autofarm;
    const target = farm?.target;
    if (!farm || !target || s.closing || !s.world) return stop(s);
    const tile = parts.tileAt(s, target.x, target.y);
    if (!tile) return stop(s, 'you left the world.');
    const item = tile.fg === 0 && parts.holds(s, target.block) ? target.block : ITEM.fist;
    if (item === ITEM.fist && !tile.fg && !tile.bg) return stop(s, 'nothing left to farm there.');
    if (!(await parts.act(s, target.x, target.y, item))) return stop(s, 'that tile is out of reach.');
    if (s.autofarm === farm) farm.timer = setTimeout(() => void tick(s), delay());
  };

  return {
    /** Turns it on (waiting for a punch) or off; answers whether it is on now. */
    toggle(s: Session): boolean {
      if (s.autofarm) {
        stop(s);
        return false;
      }
      s.autofarm = {};
      return true;
    },
    /** A punch of the player's own: the first one after /autofarm chooses the tile. */
    punched(s: Session, x: number, y: number) {
      const farm = s.autofarm;
      if (!farm || farm.target) return;
      const tile = parts.tileAt(s, x, y);
      if (!tile) return;
      farm.target = { x, y, block: tile.fg };
      farm.timer = setTimeout(() => void tick(s), delay());
    },
    stop,
  };
}

export type Autofarm = ReturnType<typeof createAutofarm>;
