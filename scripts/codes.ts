// Redeem codes until the admin panel has its Redeem Codes tab: `npm run codes -- <command>` (README).
//   create --type Slot|ServerTime --amount N --stock N [--suffix S | --code C] [--expires YYYY-MM-DD] [--public]
//   list
//   delete CODE
// Opens the same database as the api (DATABASE_URL, else $CANOPY_DATA_DIR/canopy.db) and migrates it first.
import { parseArgs } from 'node:util';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { AppError } from '../apps/api/src/errors.ts';
import {
  createRedeemCode,
  deleteRedeemCode,
  listRedeemCodes,
  type RedeemCodeView,
} from '../apps/api/src/redeem/redeem-codes.service.ts';

const usage = `usage: npm run codes -- create --type Slot|ServerTime --amount N --stock N [--suffix S | --code C] [--expires YYYY-MM-DD] [--public]
       npm run codes -- list
       npm run codes -- delete CODE`;

class UsageError extends Error {}

const whole = (value: string | undefined, name: string) => {
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
};

const describe = (c: RedeemCodeView) =>
  [
    c.code,
    c.reward,
    `claimed ${c.claimed}/${c.stock}`,
    c.isPublic ? 'public' : 'private',
    c.expiryDate ? `expires ${c.expiryDate}` : 'no expiry',
    `by ${c.createdBy}`,
    c.claimedBy.length ? `claimed by ${c.claimedBy.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('  ');

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      type: { type: 'string' },
      amount: { type: 'string' },
      stock: { type: 'string' },
      suffix: { type: 'string' },
      code: { type: 'string' },
      expires: { type: 'string' },
      public: { type: 'boolean', default: false },
    },
  });
  const [command, arg, extra] = positionals;
  if (!command || extra !== undefined) throw new UsageError('');
  const db = await openDatabase(loadConfig(process.env));
  try {
    if (command === 'create' && arg === undefined) {
      if (values.suffix !== undefined && values.code !== undefined)
        throw new UsageError('--suffix and --code exclude each other');
      const type = values.type;
      if (type !== 'Slot' && type !== 'ServerTime') throw new UsageError('--type must be Slot or ServerTime');
      const created = await createRedeemCode(
        db,
        {
          type,
          amount: whole(values.amount, 'amount'),
          stock: whole(values.stock, 'stock'),
          customSuffix: values.suffix,
          code: values.code,
          expiryDate: values.expires,
          isPublic: values.public,
          createdBy: 'cli',
        },
        Date.now(),
      );
      // The code alone on the first line, for scripts: `code=$(npm run -s codes -- create ... | head -1)`.
      console.log(created.code);
      console.log(describe(created));
      return 0;
    }
    if (command === 'list' && arg === undefined) {
      const codes = await listRedeemCodes(db);
      for (const c of codes) console.log(describe(c));
      if (codes.length === 0) console.log('no codes');
      return 0;
    }
    if (command === 'delete' && arg !== undefined) {
      await deleteRedeemCode(db, arg);
      console.log(`deleted ${arg}`);
      return 0;
    }
    throw new UsageError('');
  } finally {
    await db.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
    if (error.message) console.error(error.message);
    console.error(usage);
    process.exitCode = 2;
  } else if (
    error instanceof AppError ||
    (error instanceof Error && error.message.startsWith('Invalid configuration'))
  ) {
    console.error(`refused: ${error.message}`);
    process.exitCode = 1;
  } else throw error;
}
