import type { FeedbackEntry, FeedbackStatus, FeedbackType } from '@canopy/contract';
import { containsPattern } from '../admin/paging.ts';
import type { Db, SqlValue } from '../db/db.ts';

/** What the admin Feedback tab narrows its list to: a type, a status, a text in the message or the sender. */
export interface FeedbackFilter {
  type?: FeedbackType;
  status?: FeedbackStatus;
  search?: string;
}

/** The filter as a WHERE clause; LIKE's wildcards in the search are escaped. */
function feedbackWhere(filter: FeedbackFilter): { where: string; args: SqlValue[] } {
  const parts: string[] = [];
  const args: SqlValue[] = [];
  if (filter.type) {
    parts.push('type = ?');
    args.push(filter.type);
  }
  if (filter.status) {
    parts.push('status = ?');
    args.push(filter.status);
  }
  if (filter.search) {
    const like = containsPattern(filter.search);
    parts.push(`(LOWER(message) LIKE ? ESCAPE '\\' OR LOWER(submitted_by_username) LIKE ? ESCAPE '\\'
      OR LOWER(COALESCE(submitted_by_grow_id, '')) LIKE ? ESCAPE '\\')`);
    args.push(like, like, like);
  }
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args };
}

interface FeedbackRow {
  id: string;
  user_id: string | null;
  type: FeedbackType;
  message: string;
  submitted_by_username: string;
  submitted_by_grow_id: string | null;
  status: FeedbackStatus;
  created_at: number | string;
}

/** What a new feedback message records (the sender's names are copied: they outlive the account). */
export interface NewFeedback {
  id: string;
  userId: string;
  type: FeedbackType;
  message: string;
  username: string;
  growId: string | null;
  createdAt: number;
}

const toEntry = (r: FeedbackRow): FeedbackEntry => ({
  id: r.id,
  userId: r.user_id,
  type: r.type,
  message: r.message,
  submittedByUsername: r.submitted_by_username,
  submittedByGrowId: r.submitted_by_grow_id,
  status: r.status,
  createdAt: new Date(Number(r.created_at)).toISOString(),
});

/** Feedback sent from the Feedback page; the admin panel lists it, moves its status and deletes it. */
export const feedbackRepo = {
  insert(db: Db, f: NewFeedback) {
    return db.run(
      `INSERT INTO feedback (id, user_id, type, message, submitted_by_username, submitted_by_grow_id, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'New', ?)`,
      [f.id, f.userId, f.type, f.message, f.username, f.growId, f.createdAt],
    );
  },
  /** One page (from 1) of feedback within `filter`, newest first, and how many match in all. */
  async list(
    db: Db,
    page: number,
    size: number,
    filter: FeedbackFilter = {},
  ): Promise<{ entries: FeedbackEntry[]; total: number }> {
    const { where, args } = feedbackWhere(filter);
    const rows = await db.all<FeedbackRow>(
      `SELECT id, user_id, type, message, submitted_by_username, submitted_by_grow_id, status, created_at
       FROM feedback ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...args, size, (page - 1) * size],
    );
    const count = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM feedback ${where}`, args);
    return { entries: rows.map(toEntry), total: Number(count?.n ?? 0) };
  },
  /**
   * Moves one message to a status: 'changed', 'same' when it already had it (nothing written), or 'missing'.
   * One conditional UPDATE decides, so of two admins setting the same status at once only one sees 'changed'.
   */
  async setStatus(db: Db, id: string, status: FeedbackStatus): Promise<'changed' | 'same' | 'missing'> {
    const { changes } = await db.run('UPDATE feedback SET status = ? WHERE id = ? AND status <> ?', [
      status,
      id,
      status,
    ]);
    if (changes === 1) return 'changed';
    return (await db.get('SELECT 1 AS found FROM feedback WHERE id = ?', [id])) ? 'same' : 'missing';
  },
  /** Deletes one message; false when there is no such message. */
  async delete(db: Db, id: string): Promise<boolean> {
    return (await db.run('DELETE FROM feedback WHERE id = ?', [id])).changes === 1;
  },
};
