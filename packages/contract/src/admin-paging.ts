import { z } from 'zod';

/** Page size of every admin list (admin document, section 9). */
export const ADMIN_PAGE_SIZE = 10;
/** Longest search text an admin list accepts. */
export const ADMIN_SEARCH_MAX = 100;

/** Query of a paged, searchable admin list: `?page=1&search=text` (page from 1; search optional). */
export const adminListQuerySchema = z.object({
  page: z.coerce
    .number()
    .int('page must be a whole number.')
    .min(1, 'page must be 1 or more.')
    .max(1_000_000)
    .default(1),
  search: z
    .string()
    .trim()
    .max(ADMIN_SEARCH_MAX, `search must be at most ${ADMIN_SEARCH_MAX} characters.`)
    .optional()
    .transform((v) => (v ? v : undefined)),
});
export type AdminListQuery = z.infer<typeof adminListQuerySchema>;

/** The envelope of every admin list: one page of items and the total count, for the pagination widget. */
export const adminPageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
export interface AdminPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
