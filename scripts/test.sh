#!/usr/bin/env bash
# Every test: type check, unit and data-layer tests (on SQLite and on PostgreSQL), then the browser tests
# against the production build. Needs a PostgreSQL server the tests may create databases on (by default
# postgres://postgres@127.0.0.1:5432/postgres; TEST_POSTGRES_URL to change) and Chromium (CHROMIUM_PATH to change).
# Both are checked first, so that a missing one stops the run at once with what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ]; then
  echo "Dependencies are missing: run npm ci first (README, Set-up)." >&2
  exit 1
fi

# PostgreSQL, for the data-layer tests: it must answer, let the tests in and let them create databases.
if ! node_modules/.bin/tsx tests/support/check-postgres.ts; then
  echo >&2
  echo "npm test stopped before running any test: PostgreSQL is needed (see above)." >&2
  exit 1
fi

# Chromium, for the browser tests (Playwright downloads no browser here).
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ] && [ -z "${CHROMIUM_PATH:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's Chromium for the browser tests (apt-get install -y chromium)..."
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }; then
    echo "apt-get could not install chromium (see above)." >&2
  fi
fi
if [ ! -x "$chromium" ]; then
  echo "The browser tests need Chromium, and there is none at $chromium." >&2
  echo "Install it (Debian: sudo apt-get install -y chromium; elsewhere install Chromium or Google Chrome)," >&2
  echo "or set CHROMIUM_PATH to a Chromium or Chrome binary." >&2
  echo "npm test stopped before running any test." >&2
  exit 1
fi

# poppler's pdftotext, for the document tests that read each script back from the PDF (app/documents/scripts.server.test.ts).
if ! command -v pdftotext >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's poppler-utils for the document tests (apt-get install -y poppler-utils)..."
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null || echo "apt-get could not install poppler-utils (see above)." >&2
fi
if ! command -v pdftotext >/dev/null; then
  echo "The document tests need poppler's pdftotext: install it (Debian: sudo apt-get install -y poppler-utils)." >&2
  echo "npm test stopped before running any test." >&2
  exit 1
fi

npm run typecheck
npm run check:imports
npx vitest run
npx playwright test
