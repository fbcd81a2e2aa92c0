import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * A copy with one byte flipped where SQLite's integrity check does not look (row content, not structure), so
 * only the backup's checksum can tell. Where that is depends on the engine's schema, so it is searched for.
 */
export function damageUnseenByIntegrityCheck(original: Buffer): Buffer {
  const probe = join(tmpdir(), `canopy-damage-${process.pid}-${Math.random().toString(36).slice(2)}.db`);
  try {
    for (let offset = original.length - 100; offset > 100; offset -= 97) {
      const damaged = Buffer.from(original);
      damaged[offset] = (damaged[offset] ?? 0) ^ 0xff;
      writeFileSync(probe, damaged);
      const db = new DatabaseSync(`file:${probe}?immutable=1`, { readOnly: true });
      try {
        const verdict = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
        if (verdict.length === 1 && verdict[0]?.integrity_check === 'ok') return damaged;
      } catch {
        // This byte broke the structure; try another.
      } finally {
        db.close();
      }
    }
  } finally {
    rmSync(probe, { force: true });
  }
  throw new Error('no byte of the backup changes only its content');
}
