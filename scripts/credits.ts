// Credits by hand, until the admin panel has its own adjustment: `npm run credits -- <command>`.
//   grant <discordId|GrowID> <amount> [reason]   add credits (a negative amount takes them back)
//   balance <discordId|GrowID>                    show the balance
// Opens the api's database exactly as the api does (DATABASE_URL, else $CANOPY_DATA_DIR/canopy.db).
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/open.ts';
import { AppError } from '../apps/api/src/errors.ts';
import { creditsRepo } from '../apps/api/src/payments/credits.repo.ts';
import { grantCredits } from '../apps/api/src/payments/credits.service.ts';

const usage = `usage: npm run credits -- grant <discordId|GrowID> <amount> [reason]
       npm run credits -- balance <discordId|GrowID>`;

async function main(argv: string[]): Promise<number> {
  const [command, who, amountText, ...reasonWords] = argv;
  const grant = command === 'grant' && who && amountText !== undefined;
  if (!grant && !(command === 'balance' && who && amountText === undefined)) {
    console.error(usage);
    return 2;
  }
  const amount = Number(amountText);
  if (grant && !/^-?\d+$/.test(amountText ?? '')) {
    console.error(`refused: "${amountText}" is not a whole number`);
    return 1;
  }
  const db = await openDatabase(loadConfig(process.env));
  try {
    const userId = await creditsRepo.findUserId(db, who);
    if (!userId) {
      console.error(`refused: no user has the Discord ID or GrowID "${who}"`);
      return 1;
    }
    if (!grant) {
      console.log(`${userId}: ${await creditsRepo.balance(db, userId)} credits`);
      return 0;
    }
    const reason = reasonWords.join(' ').trim() || 'cli';
    const result = await grantCredits(db, userId, amount, { reason, actor: 'cli' }, Date.now());
    if (result.status === 'granted')
      console.log(`${userId}: ${amount > 0 ? '+' : ''}${amount}, balance ${result.balance} credits`);
    return 0;
  } finally {
    await db.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof AppError) && !(error instanceof Error && error.message.startsWith('Invalid configuration')))
    throw error;
  console.error(`refused: ${error.message}`);
  process.exitCode = 1;
}
