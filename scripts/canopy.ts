// Operator commands: `npm run canopy -- <command>` (README, "First admin").
//   admin grant <discordId>    make a Discord id a super admin (they must have signed in once)
//   admin revoke <discordId>   take every admin role from them (never from the last super admin)
//   admin list                 every admin and super admin
//   db backup <file>           a consistent copy of the SQLite platform database, taken while the panel runs
// Opens the same database as the api (DATABASE_URL, else $CANOPY_DATA_DIR/canopy.db) and migrates it first.
import { discordIdSchema } from '@canopy/contract';
import { rolesRepo } from '../apps/api/src/admin/roles/roles.repo.ts';
import { grantSuperAdmin, OperatorError, revokeAdmin } from '../apps/api/src/admin/roles/roles.service.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Db } from '../apps/api/src/db/db.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { backupPlatformSqlite, PlatformBackupError } from '../apps/api/src/db/platform-backup.ts';

const usage = `usage: npm run canopy -- admin grant <discordId>
       npm run canopy -- admin revoke <discordId>
       npm run canopy -- admin list
       npm run canopy -- db backup <file>`;

class UsageError extends Error {}

const discordId = (value: string | undefined) => {
  const parsed = discordIdSchema.safeParse(value ?? '');
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? 'A Discord ID is required.');
  return parsed.data;
};

const who = (u: { username: string; grow_id: string | null }) =>
  u.grow_id ? `${u.username} (${u.grow_id})` : u.username;

async function listAdmins(db: Db) {
  const PAGE = 100;
  let shown = 0;
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await rolesRepo.page(db, undefined, PAGE, offset);
    for (const a of rows) {
      const role = a.isSuperAdmin ? 'super admin' : 'admin';
      const permissions = a.isSuperAdmin ? 'all permissions' : a.permissions.join(', ') || 'no permissions';
      console.log([a.id, a.username, a.growId ?? '-', role, permissions].join('  '));
    }
    shown += rows.length;
    if (rows.length < PAGE) break;
  }
  if (shown === 0) console.log('no admins');
}

async function main(argv: string[]): Promise<number> {
  const [area, command, arg, extra] = argv;
  if (area === 'db') return databaseCommand(command, arg, extra);
  if (area !== 'admin' || extra !== undefined) throw new UsageError('');
  const config = loadConfig(process.env);
  if (command === 'list' && arg === undefined) {
    const db = await openDatabase(config);
    try {
      await listAdmins(db);
    } finally {
      await db.close();
    }
    return 0;
  }
  if (command !== 'grant' && command !== 'revoke') throw new UsageError('');
  const id = discordId(arg);
  const db = await openDatabase(config);
  try {
    if (command === 'grant') {
      const user = await grantSuperAdmin(db, id, Date.now());
      console.log(`${who(user)} (${id}) is now a super admin.`);
      return 0;
    }
    const user = await revokeAdmin(db, id, Date.now());
    console.log(`${who(user)} (${id}) is no longer an admin.`);
    // Sign-in re-applies the variable: say so, or the revoke looks like it did not hold.
    if (config.superAdmins.includes(id))
      console.log(`note: ${id} is listed in CANOPY_SUPER_ADMINS and becomes a super admin again at the next sign-in.`);
    return 0;
  } finally {
    await db.close();
  }
}

/** `db backup <file>`: SQLite only; PostgreSQL's own tools do it better (docs/operations.md). */
function databaseCommand(command: string | undefined, file: string | undefined, extra: string | undefined): number {
  if (command !== 'backup' || !file || extra !== undefined) throw new UsageError('');
  const config = loadConfig(process.env);
  if (config.databaseUrl)
    throw new PlatformBackupError('DATABASE_URL names PostgreSQL: back it up with pg_dump (docs/operations.md).');
  const { bytes } = backupPlatformSqlite(config.dataDir, file);
  console.log(`Backed up the platform database to ${file} (${bytes} bytes).`);
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    if (error.message) console.error(error.message);
    console.error(usage);
    process.exitCode = 2;
  } else if (
    error instanceof OperatorError ||
    error instanceof PlatformBackupError ||
    (error instanceof Error && error.message.startsWith('Invalid configuration'))
  ) {
    console.error(`refused: ${error.message}`);
    process.exitCode = 1;
  } else throw error;
}
