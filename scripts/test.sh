#!/usr/bin/env bash
# Every check and test of the project; `npm test` runs this after `npm install`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-services.sh
echo "== lint";      biome check .
echo "== typecheck"; npm run -s typecheck
echo "== build web"; npm run -s build >/dev/null
echo "== tests (unit, api on SQLite and PostgreSQL, browser)"
node --test --test-concurrency=2 \
  'packages/*/test/**/*.test.ts' 'apps/*/test/**/*.test.ts' 'tests/e2e/**/*.test.ts'
