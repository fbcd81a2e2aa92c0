import { randomBytes } from 'node:crypto';
import type { RuntimeState } from '../runtime/types.ts';
import type { ServerRow } from './servers.repo.ts';

/** The runtime's view of a stored server. */
export const toSpec = (s: ServerRow) => ({
  id: s.id,
  name: s.name,
  ownerId: s.owner_id,
  gamePort: Number(s.game_port),
  secret: s.control_secret,
  lastCrashAt: s.last_crash_at === null ? null : Number(s.last_crash_at),
});

/** A fresh per-instance control secret. */
export const newControlSecret = () => randomBytes(32).toString('base64url');

/** A status feed entry: name, status, players, version. */
export const feedEntry = (name: string, state: RuntimeState) => ({
  name,
  status: state.status,
  players: state.players,
  version: state.version,
});
