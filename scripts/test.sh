#!/usr/bin/env bash
# Every test: type check, unit and data-layer tests (on SQLite and on PostgreSQL), then the browser tests
# against the production build. Needs PostgreSQL at 127.0.0.1:5432 (TEST_POSTGRES_URL to change) and Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's Chromium for the browser tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "The browser tests need Chromium at $chromium." >&2
    echo "Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary." >&2
    exit 1
  fi
fi

if [ ! -d node_modules ]; then
  echo "Dependencies are missing: run npm ci first." >&2
  exit 1
fi

npm run typecheck
npx vitest run
npx playwright test
