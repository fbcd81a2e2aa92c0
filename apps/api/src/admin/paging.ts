import { ADMIN_PAGE_SIZE, type AdminPage } from '@canopy/contract';

/** LIMIT/OFFSET of a 1-based page of the admin lists. */
export const pageWindow = (page: number, size = ADMIN_PAGE_SIZE) => ({ limit: size, offset: (page - 1) * size });

/**
 * A LIKE pattern that matches `text` anywhere, with LIKE's own wildcards escaped (use with `ESCAPE '\'`),
 * lower-cased: compare it with a lower-cased column.
 */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The envelope of an admin list. */
export const pageOf = <T>(items: T[], total: number, page: number, size = ADMIN_PAGE_SIZE): AdminPage<T> => ({
  items,
  total: Number(total),
  page,
  pageSize: size,
});
