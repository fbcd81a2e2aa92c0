#!/bin/sh
# The container image's build steps, one stage per argument, run in a copy of the repository. The Dockerfile RUNs
# each stage and apps/api/test/image-build.test.ts runs the same stages on a clean copy of the tracked files, so
# what the image holds is tested here even though no container is built on these machines (ADR 0047).
#
#   build.sh web   the web app: its own dependencies (dev ones included) and `npm run build` -> apps/web/dist
#   build.sh app   the runtime layout, with apps/web/dist copied in from the web stage: production
#                  dependencies of the api and the engine only, tests and sources of the web app removed
#
# npm reads its other settings from the environment (the test sets npm_config_prefer_offline=true).
# --ignore-scripts: no dependency needs an install script to work (the only ones are a download of Node itself,
# a dev dependency, and a telemetry ping); --no-audit --no-fund: no calls besides the registry's packages.
set -eu

npm_ci() { npm ci --ignore-scripts --no-audit --no-fund "$@"; }

case "${1:-}" in
  web)
    # Only the web workspace's tree: the root's dev tools (TypeScript, Biome, Playwright, the node package) are
    # not needed to build it.
    npm_ci --workspace @canopy/web
    npm run build
    ;;
  app)
    [ -f apps/web/dist/index.html ] || { echo "build.sh app: apps/web/dist is missing (copy it from the web stage)" >&2; exit 1; }
    # What runs is apps/api (api, gateway) and packages/engine with the packages they import; the built web app
    # replaces its sources. The workspaces' package.json files stay: npm ci checks them against the lockfile.
    find apps/web -mindepth 1 -maxdepth 1 ! -name dist ! -name package.json -exec rm -rf {} +
    rm -rf tests bench apps/api/test packages/*/test
    npm_ci --omit=dev --workspace @canopy/api --workspace @canopy/engine
    # The image's user (uid 1000) does not own these files: it must read them all and write none, whatever
    # umask the checkout was made with.
    chmod -R u+rwX,go+rX,go-w .
    node scripts/image/check-layout.ts .
    ;;
  *)
    echo "usage: build.sh web|app (run in a copy of the repository)" >&2
    exit 2
    ;;
esac
