import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

/** The PostgreSQL server the tests create their throwaway databases on. */
export const PG_ADMIN_URL = process.env.CANOPY_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Dialects every api test runs on; CANOPY_TEST_DIALECTS=sqlite narrows it for a quick local run. */
export const dialects: Dialect[] = (process.env.CANOPY_TEST_DIALECTS ?? 'sqlite,postgres')
  .split(',')
  .map((d) => d.trim() as Dialect);

/** A fresh, empty PostgreSQL database for one api instance, dropped by the returned function. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `canopy_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
