#!/usr/bin/env bash
# The container image's runtime tree on the Node the image ships (22), without a Docker engine: assembles it
# with scripts/image-tree.sh, checks that no development package is in it, then runs the operator commands
# (seed, guide import from a zip, a backup) and the server from it. CI runs this after the tests, which run on Node 20.
# Node 22 comes from the npm registry (the node-linux-<arch> package carries the binary and its headers).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "image smoke test: $*" >&2; exit 1; }

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) fail "no Node package for $(uname -m)" ;;
esac
(cd "$work" && npm pack "node-linux-$arch@22" --silent >/dev/null && tar xzf node-linux-*.tgz && mv package node22)
node22="$work/node22"

NODE_BIN="$node22/bin" npm_config_nodedir="$node22" bash "$repo/scripts/image-tree.sh" "$work/image"
app="$work/image/app"

for package in typescript vite tsx vitest @playwright @react-router/dev dependency-cruiser; do
  [ ! -e "$app/node_modules/$package" ] || fail "the development package $package is in the runtime tree"
done
[ -z "$(find "$app/db/seed" -name '*.test.*')" ] || fail "a test file is in the seed folder"

cd "$app"
export PATH="$node22/bin:$PATH" NODE_ENV=production DATA_DIR="$app/data" DATABASE_URL="file:$app/data/app.db" \
  DATA_ENCRYPTION_KEY="$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("base64"))')"
echo "Running the tree with Node $(node --version)"
node build/server/cli.js db seed
node --input-type=module -e '
  import { readdirSync, readFileSync, writeFileSync } from "node:fs";
  import { zipSync } from "fflate";
  const dir = process.argv[1];
  writeFileSync("guide.zip", zipSync(Object.fromEntries(readdirSync(dir).map((name) => [`guide/${name}`, readFileSync(`${dir}/${name}`)]))));
' "$app/db/seed/guides/letter-of-demand"
node build/server/cli.js guide import guide.zip --id smoke-guide --issue 2
status=0
node build/server/cli.js guide import guide.zip --id smoke-guide --issue 999 || status=$?
[ "$status" = 1 ] || fail "a refused import exited $status, not 1"
# The first administrator is made in the container: an account that does not exist is refused (exit 1).
status=0
node build/server/cli.js admin grant nobody@example.org || status=$?
[ "$status" = 1 ] || fail "admin grant of an unknown account exited $status, not 1"
node build/server/cli.js db backup "$work/backup.db"
node -e 'const db = new (require("better-sqlite3"))(process.argv[1], { readonly: true }); const { n } = db.prepare("select count(*) as n from guides where id = ?").get("smoke-guide"); process.exit(n === 1 ? 0 : 1)' "$work/backup.db" \
  || fail "the backup does not hold the imported guide"
# The S3 client (STORAGE_URL) is loaded on first use only: check that it loads from the runtime tree.
node --input-type=module -e 'const { S3Client } = await import("@aws-sdk/client-s3"); new S3Client({ region: "us-east-1" });' \
  || fail "the S3 client does not load"

port=3297
SESSION_SECRET="image-smoke-secret-image-smoke-secret-000" PORT=$port node server.js &
server_pid=$!
for _ in $(seq 1 50); do
  node -e "fetch('http://127.0.0.1:$port/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" && break
  sleep 0.2
done
for path in /healthz / /issues/2; do
  code=$(node -e "fetch('http://127.0.0.1:$port$path').then((r) => console.log(r.status), () => console.log(0))")
  [ "$code" = 200 ] || fail "GET $path answered $code"
  echo "GET $path: $code"
done
kill -TERM "$server_pid"
wait "$server_pid" || fail "the server did not stop cleanly on SIGTERM"
server_pid=""
echo "image smoke test passed: the runtime tree runs the operator commands and the server on Node $(node --version)"
