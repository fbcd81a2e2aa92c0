// Writes the default texture sheets as PNG files, to look at the sprites after editing sprites.ts.
// Run: node packages/formats/scripts/preview-sheets.ts [out-folder]   (default: a new temporary folder)
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeRttexFile, encodePng } from '../src/node.ts';
import { buildAssets } from './build-assets.ts';

const out = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'canopy-sheets-'));
mkdirSync(out, { recursive: true });
for (const [path, bytes] of buildAssets()) {
  if (!path.endsWith('.rttex')) continue;
  const sheet = decodeRttexFile(bytes);
  const file = join(out, path.replace(/^.*\//, '').replace(/\.rttex$/, '.png'));
  writeFileSync(file, encodePng(sheet.width, sheet.height, sheet.rgba));
  console.log(`${file}  ${sheet.width}x${sheet.height}`);
}
