#!/usr/bin/env bash
# The container image's runtime tree on the Node the image ships (22), without a Docker engine: assembles it
# with scripts/image-tree.sh (which carries out the Dockerfile), checks that no development package is in it, then
# runs the operator commands (seed, guide import from a zip, documents assembled from answers, a backup), the
# upload check's and text extraction's workers, and the server from it. CI runs this after the tests, which run on
# Node 20. DOCKERFILE=<file> carries out another Dockerfile (to see this test fail on a tree that lacks something).
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

# Documents from the runtime tree: a guide with a DAT text template (set in Tinos, from app/documents/fonts) and
# a Word template, assembled from answers by the operator command, as a download is.
node --input-type=module -e '
  import { readdirSync, readFileSync, writeFileSync } from "node:fs";
  import { strToU8, zipSync } from "fflate";
  const dir = process.argv[1];
  const files = Object.fromEntries(readdirSync(dir).map((name) => [`guide/${name}`, readFileSync(`${dir}/${name}`)]));
  const paragraph = (text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  files["guide/template2.docx"] = zipSync({
    "[Content_Types].xml": strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`),
    "_rels/.rels": strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`),
    "word/document.xml": strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraph("Claim by {User full name TE}")}${paragraph("against {Debtor name TE}.")}</w:body></w:document>`),
  });
  files["guide/templates.json"] = strToU8(JSON.stringify({ guideId: "smoke-documents", templateIds: [1, 2] }));
  writeFileSync("documents-guide.zip", zipSync(files));
  writeFileSync("answers.json", JSON.stringify({ "User full name TE": { values: [null, "Ada Lovelace"] }, "Debtor name TE": { values: [null, "Babbage Ltd"] } }));
' "$app/db/seed/guides/letter-of-demand"
node build/server/cli.js guide import documents-guide.zip --id smoke-documents
node build/server/cli.js guide assemble smoke-documents --answers answers.json --out documents.zip
# Each file read back with the runtime tree's own code: the upload check's worker reads it whole (as a person's
# upload would be), the text extraction's worker gives its words, and the PDF's fonts are Tinos, embedded.
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  import { Worker } from "node:worker_threads";
  import { PDFDict, PDFDocument, PDFName } from "@cantoo/pdf-lib";
  import { unzipSync } from "fflate";
  const fail = (message) => { console.error(`image smoke test: ${message}`); process.exit(1); };
  const run = (worker, workerData) => new Promise((resolve, reject) => {
    // execArgv empty: a worker started from a file refuses the --input-type this script runs with.
    const thread = new Worker(new URL(`build/server/workers/${worker}.worker.js`, `file://${process.cwd()}/`), { workerData, execArgv: [] });
    thread.once("message", (answer) => { resolve(answer); void thread.terminate(); });
    thread.once("error", reject);
  });
  const files = Object.entries(unzipSync(readFileSync("documents.zip")));
  const pdf = files.find(([name]) => name.endsWith(".pdf"))?.[1];
  const word = files.find(([name]) => name.endsWith(".docx"))?.[1];
  if (!pdf || !word) fail(`documents.zip holds ${files.map(([name]) => name).join(", ")}, not a PDF and a Word file`);
  for (const [kind, bytes] of [["pdf", pdf], ["docx", word]]) {
    const problem = await run("upload-check", { kind, bytes });
    if (problem !== null) fail(`the assembled ${kind} does not read whole: ${problem}`);
    const read = await run("extract-text", { kind, bytes });
    const text = read.pages?.join(" ") ?? read.text ?? "";
    for (const words of ["Ada Lovelace", "Babbage Ltd"]) if (!text.includes(words)) fail(`the assembled ${kind} lacks "${words}": ${JSON.stringify(read).slice(0, 300)}`);
    console.log(`${kind}: reads whole, ${text.length} characters of text with the answers in it`);
  }
  const fonts = new Set();
  for (const [, object] of (await PDFDocument.load(pdf)).context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && object.get(PDFName.of("Type")) === PDFName.of("Font")) fonts.add(String(object.get(PDFName.of("BaseFont"))));
  }
  if (![...fonts].some((name) => /Tinos/.test(name))) fail(`the PDF does not embed Tinos: ${[...fonts].join(", ")}`);
  console.log(`pdf fonts: ${[...fonts].join(", ")}`);
'
# The check can fail: without the fonts folder the same assembly is refused (exit 1), naming the fonts.
mv "$app/app/documents/fonts" "$work/fonts-aside"
status=0
assembled=$(node build/server/cli.js guide assemble smoke-documents --answers answers.json --out documents-without-fonts.zip 2>&1) || status=$?
mv "$work/fonts-aside" "$app/app/documents/fonts"
[ "$status" = 1 ] && [[ "$assembled" == *"app/documents/fonts"* ]] || fail "without its fonts the tree still assembled (exit $status): $assembled"
echo "without app/documents/fonts: refused as it should be ($assembled)"

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
echo "image smoke test passed: the runtime tree runs the operator commands, assembles documents, runs its workers and the server on Node $(node --version)"
