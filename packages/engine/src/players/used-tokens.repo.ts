import type { DatabaseSync } from 'node:sqlite';

/** How many claims pass between two sweeps of expired nonces. */
const SWEEP_EVERY = 64;

/**
 * The nonces of game tokens already used, until each token expires (table used_tokens). In the database, not in
 * memory: a token spent before an engine restart or a sleep is still refused after it.
 */
export function createUsedTokensRepo(db: DatabaseSync) {
  const insert = db.prepare('INSERT INTO used_tokens (nonce, exp) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING');
  const sweep = db.prepare('DELETE FROM used_tokens WHERE exp <= ?');
  let claims = 0;
  return {
    /** True the first time a nonce is offered; the primary key decides, so two logins cannot both win. */
    claim(nonce: string, exp: number, now: number): boolean {
      if (++claims % SWEEP_EVERY === 0) sweep.run(now);
      return Number(insert.run(nonce, exp).changes) === 1;
    },
  };
}

export type UsedTokensRepo = ReturnType<typeof createUsedTokensRepo>;
