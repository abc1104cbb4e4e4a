#!/bin/sh
# Removes from a production node_modules what nothing loads at run time: better-sqlite3's compiler inputs and
# intermediate files (its SQLite sources and object files, about 25 MB; only the compiled addon is loaded),
# source maps, TypeScript sources and declarations, and markdown. Run by the Dockerfile after `npm prune`.
set -eu
modules="${1:-node_modules}"

sqlite="$modules/better-sqlite3"
if [ -d "$sqlite" ]; then
  rm -rf "$sqlite/deps" "$sqlite/src"
  find "$sqlite/build" -mindepth 1 ! -path "$sqlite/build/Release" ! -path "$sqlite/build/Release/better_sqlite3.node" -prune -exec rm -rf {} +
  test -f "$sqlite/build/Release/better_sqlite3.node" || { echo "better-sqlite3 has no compiled addon" >&2; exit 1; }
fi

find "$modules" -type f \( -name "*.map" -o -name "*.ts" -o -name "*.mts" -o -name "*.cts" -o -name "*.md" -o -name "*.markdown" \) -delete
find "$modules" -mindepth 1 -type d -empty -delete
