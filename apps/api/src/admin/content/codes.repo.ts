import type { RedeemCodeType } from '@canopy/contract';
import type { Db } from '../../db/db.ts';
import { containsPattern } from '../paging.ts';

/** The columns of one code as the admin list reads them (BIGINTs come back as strings on PostgreSQL). */
interface CodeRow {
  code_key: string;
  code: string;
  type: RedeemCodeType;
  amount: number | string;
  stock: number | string;
  claimed: number | string;
  is_public: number | string;
  expires_at: number | string | null;
  created_by: string;
}

/** The admin Redeem Codes list: one page and its total, searched by code text, counted and paged in SQL. */
export const adminCodesRepo = {
  async page(db: Db, search: string | undefined, limit: number, offset: number) {
    // Codes are stored as typed; the search ignores case like a redeem does.
    const where = search ? `WHERE LOWER(code) LIKE ? ESCAPE '\\'` : '';
    const params = search ? [containsPattern(search)] : [];
    const rows = await db.all<CodeRow>(
      `SELECT code_key, code, type, amount, stock, claimed, is_public, expires_at, created_by FROM redeem_codes
       ${where} ORDER BY created_at DESC, code_key LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    const count = await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM redeem_codes ${where}`, params);
    return {
      total: Number(count?.n ?? 0),
      rows: rows.map((r) => ({
        key: r.code_key,
        code: r.code,
        type: r.type,
        amount: Number(r.amount),
        stock: Number(r.stock),
        claimed: Number(r.claimed),
        isPublic: Number(r.is_public) === 1,
        expiresAt: r.expires_at === null ? null : Number(r.expires_at),
        createdBy: r.created_by,
      })),
    };
  },
};
