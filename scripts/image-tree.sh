#!/usr/bin/env bash
# Assembles the container image's runtime file tree without a Docker engine, the way the Dockerfile's stages
# do (keep the two alike): the committed sources, `npm ci`, the build, the prune and the slimming, then only
# what the runtime stage copies. Prints its size, which is what the Dockerfile adds on top of the Node image.
# Usage: scripts/image-tree.sh <empty-or-new-folder>   (NODE_BIN=/path/to/node22/bin to build with another Node)
set -euo pipefail
dest="$(realpath -m "${1:?Usage: scripts/image-tree.sh <folder>}")"
repo="$(cd "$(dirname "$0")/.." && pwd)"
if [ -e "$dest" ] && [ -n "$(ls -A "$dest")" ]; then echo "$dest is not empty" >&2; exit 1; fi
if [ -n "${NODE_BIN:-}" ]; then export PATH="$NODE_BIN:$PATH"; fi
echo "Node $(node --version), npm $(npm --version)"

# The build stage: the committed sources less what .dockerignore leaves out.
stage="$dest/build-stage"
mkdir -p "$stage" "$dest/app"
git -C "$repo" archive HEAD | tar -x -C "$stage"
(cd "$stage" && grep -v '^\s*#' "$repo/.dockerignore" | sed '/^\s*$/d' | while read -r ignored; do rm -rf "./$ignored"; done)
(
  cd "$stage"
  npm ci --include=dev --no-audit --no-fund
  npm run build
  npm prune --omit=dev --omit=optional --no-audit --no-fund
  sh scripts/slim-node-modules.sh node_modules
)

# The runtime stage's COPY lines.
app="$dest/app"
cp -a "$stage/node_modules" "$stage/build" "$stage/package.json" "$stage/server.js" "$app/"
mkdir -p "$app/db" "$app/data"
cp -a "$stage/db/seed" "$app/db/seed"
rm -rf "$stage"

echo "Runtime tree in $app:"
du -sh "$app" "$app"/node_modules "$app"/build "$app"/db/seed
