// The operator's item database: `npm run items -- <command>` (README, "Your own item database").
//   install <items.dat> <texture-folder>   validate, copy and switch to them (atomically)
//   check <items.dat> <texture-folder>     validate only
//   status                                 which database is in use
//   use-bundled                            go back to Canopy's own generated database
// The folder is CANOPY_ITEMS_DIR, else $CANOPY_DATA_DIR/item-database, as the api reads it.
import { loadConfig } from '../apps/api/src/config.ts';
import {
  InvalidItemDatabase,
  type ItemDatabaseReport,
  installItemDatabase,
  useBundledItemDatabase,
  validateItemDatabase,
} from '../apps/api/src/items/install.ts';
import { activeSource } from '../apps/api/src/items/item-database-dir.ts';

const usage = `usage: npm run items -- install <items.dat> <texture-folder>
       npm run items -- check <items.dat> <texture-folder>
       npm run items -- status | use-bundled`;

function describe(report: ItemDatabaseReport) {
  console.log(`items.dat version ${report.itemsDatVersion}, ${report.items} items, ${report.textures} textures`);
  if (report.missingTextures.length)
    console.log(`warning: textures named in items.dat but not in the folder: ${report.missingTextures.join(', ')}`);
}

async function main(argv: string[]): Promise<number> {
  const [command, datPath, textureDir] = argv;
  const { itemsDir } = loadConfig(process.env);
  if ((command === 'install' || command === 'check') && datPath && textureDir) {
    if (command === 'check') {
      describe((await validateItemDatabase(datPath, textureDir)).report);
      console.log('ok: these files can be installed');
      return 0;
    }
    const report = await installItemDatabase(itemsDir, datPath, textureDir);
    describe(report);
    console.log(
      `installed as ${report.version} in ${itemsDir}; the api picks it up within seconds, engines at their next start`,
    );
    return 0;
  }
  if (command === 'status' && !datPath) {
    const source = activeSource(itemsDir);
    console.log(`${source.version === 'bundled' ? 'bundled' : `installed ${source.version}`}: ${source.itemsDat}`);
    return 0;
  }
  if (command === 'use-bundled' && !datPath) {
    await useBundledItemDatabase(itemsDir);
    console.log('the bundled item database is in use again');
    return 0;
  }
  console.error(usage);
  return 2;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (
    !(error instanceof InvalidItemDatabase) &&
    !(error instanceof Error && error.message.startsWith('Invalid configuration'))
  )
    throw error;
  console.error(`refused: ${error.message}`);
  process.exitCode = 1;
}
