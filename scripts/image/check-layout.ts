// The last step of the image's `app` stage (build.sh): the runtime layout holds the built web app and none of the
// dev-only packages, so a dependency moved to the wrong list fails the image build instead of shipping (ADR 0047).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

interface LockPackage {
  dev?: boolean;
}

/** What is wrong with the runtime layout in `root` (empty when nothing is). */
export function layoutProblems(root: string): string[] {
  const problems: string[] = [];
  if (!existsSync(join(root, 'apps/web/dist/index.html'))) problems.push('apps/web/dist/index.html is missing');
  // The image runs the base image's Node: nothing may pick up the node package's binary (a dev dependency).
  if (existsSync(join(root, 'node_modules/.bin/node'))) problems.push('node_modules/.bin/node is present');
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockPackage>;
  };
  // The lockfile marks every package that only dev dependencies need; none of them may be installed.
  for (const [path, entry] of Object.entries(lock.packages))
    if (entry.dev && path.includes('node_modules/') && existsSync(join(root, path)))
      problems.push(`dev-only package ${path} is installed`);
  return problems;
}

if (import.meta.main) {
  const root = resolve(process.argv[2] ?? '.');
  const problems = layoutProblems(root);
  for (const problem of problems) console.error(`check-layout: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`check-layout: ${root} holds the web app and production dependencies only`);
}
