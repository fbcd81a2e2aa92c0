// Writes the default items.dat and texture sheets into packages/formats/assets/. These files are ours,
// drawn by sprites.ts; Growtopia's own files must never be committed. Run: npm run generate-assets -w @canopy/formats
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { protonHash } from '../src/index.ts';
import { buildAssets } from './build-assets.ts';

const assets = join(import.meta.dirname, '..', 'assets');
let total = 0;
for (const [path, bytes] of buildAssets()) {
  const target = join(assets, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, bytes);
  total += bytes.length;
  console.log(`${path}  ${bytes.length} bytes  proton hash ${protonHash(bytes)}`);
}
console.log(`total ${total} bytes`);
