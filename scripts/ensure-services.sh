#!/usr/bin/env bash
# Makes sure what the tests need is on this machine: Debian's Chromium for Playwright and a running
# PostgreSQL on 127.0.0.1:5432. Installs or starts them when missing (needs root, as on our machines).
set -euo pipefail

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  echo "ensure-services: '$*' needs root" >&2; return 1; fi; }

apt_updated=0
apt_install() {
  [ "$apt_updated" = 1 ] || { as_root apt-get update -qq; apt_updated=1; }
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

if [ ! -x /usr/bin/chromium ]; then
  echo "ensure-services: installing Debian's chromium for the browser tests"
  apt_install chromium
fi

pg_up() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
if ! pg_up; then
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "ensure-services: installing PostgreSQL"
    apt_install postgresql
  fi
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  echo "ensure-services: starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  pg_up || { echo "ensure-services: PostgreSQL did not come up on 127.0.0.1:5432" >&2; exit 1; }
fi
