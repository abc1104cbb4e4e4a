/**
 * Worker threads run modules of their own (`*.worker.ts`, e.g. app/interviews/upload-check.worker.ts), started as
 * `new Worker(new URL("./name.worker.ts", import.meta.url))`, or through a function given that URL
 * (`readInWorker` in app/interviews/upload-check.server.ts). Node cannot run TypeScript in a worker, so this plugin
 * rewrites each such `new URL(…)` in server code to JavaScript it has built from the module:
 * - in the build (`react-router build`, which `npm start`, the container and build/server/cli.js use), the worker
 *   is an entry of the server bundle, build/server/workers/<name>.worker.js, and the URL is that file's, relative
 *   to the chunk that asks for it (Rollup's own `import.meta.ROLLUP_FILE_URL_…` is not used: Vite renders it as
 *   a browser path, and React Router then moves the file to the client's assets);
 * - without a build (`npm run dev`, vitest), the worker is bundled on first use into node_modules/.cache/server-workers/
 *   (a folder per content hash, so runs side by side never overwrite each other's), and the sources it was built
 *   from are watched, so an edit rebuilds it.
 * Packages stay imports in both (resolved from node_modules like the server's own), as in the server bundle.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin, type Rollup } from "vite";

const PLACEHOLDER = /__SERVER_WORKER__\(([^)]+)\)/g;
const WORKER_URL = /new\s+URL\(\s*(["'])(\.{1,2}\/[^"'\n]+?\.worker\.ts)\1\s*,\s*import\.meta\.url\s*\)/g;

export function serverWorkers(): Plugin {
  let command: "build" | "serve" = "serve";
  let root = process.cwd();
  const emitted = new Map<string, string>();
  return {
    name: "server-workers",
    applyToEnvironment: (environment) => environment.config.consumer === "server",
    configResolved(config) {
      command = config.command;
      root = config.root;
    },
    async transform(code, id) {
      if (!code.includes(".worker.ts") || id.includes("/node_modules/")) return null;
      const matches = [...code.matchAll(WORKER_URL)];
      if (!matches.length) return null;
      let out = "";
      let last = 0;
      for (const match of matches) {
        if (inComment(code, match.index)) continue;
        const file = path.resolve(path.dirname(id.split("?")[0]!), match[2]!);
        let address: string;
        if (command === "build") {
          const fileName = `workers/${path.basename(file, ".ts")}.js`;
          if ((emitted.get(fileName) ?? file) !== file) this.error(`two worker modules would both be built as ${fileName}: rename one`);
          emitted.set(fileName, file);
          this.emitFile({ type: "chunk", id: file, fileName });
          address = `${JSON.stringify(`__SERVER_WORKER__(${fileName})`)}, import.meta.url`;
        } else {
          const built = await bundleForDevelopment(file, root);
          for (const source of built.sources) this.addWatchFile(source);
          address = JSON.stringify(pathToFileURL(built.entry).href);
        }
        out += `${code.slice(last, match.index)}new URL(${address})`;
        last = match.index + match[0].length;
      }
      return { code: out + code.slice(last), map: null };
    },
    renderChunk(code, chunk) {
      if (!code.includes("__SERVER_WORKER__")) return null;
      const from = path.posix.dirname(chunk.fileName);
      return { code: code.replace(PLACEHOLDER, (_, fileName: string) => `./${path.posix.relative(from, fileName)}`.replace(/^\.\/\.\.\//, "../")), map: null };
    },
  };
}

/** Whether a match sits on a comment's line (a `//` line or a block comment's ` * ` line), as in this file's own. */
function inComment(code: string, index: number): boolean {
  const line = code.slice(code.lastIndexOf("\n", index) + 1, index);
  return /^\s*(\/\/|\/?\*)/.test(line);
}

/** The worker bundled as the build bundles it (packages external), written once per content. */
async function bundleForDevelopment(entry: string, root: string): Promise<{ entry: string; sources: string[] }> {
  const result = (await build({
    configFile: false,
    root,
    logLevel: "silent",
    resolve: { tsconfigPaths: true },
    build: {
      ssr: entry,
      write: false,
      minify: false,
      rollupOptions: { output: { entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" } },
    },
  })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  const chunks = (Array.isArray(result) ? result : [result]).flatMap((output) => output.output).filter((item) => item.type === "chunk");
  const main = chunks.find((chunk) => chunk.isEntry);
  if (!main) throw new Error(`the worker ${entry} built to nothing`);
  const hash = createHash("sha256");
  for (const chunk of chunks) hash.update(`${chunk.fileName}\0${chunk.code}\0`);
  const folder = path.join(root, "node_modules/.cache/server-workers", hash.digest("hex").slice(0, 16));
  if (!existsSync(folder)) {
    // Written beside, then renamed into place: a folder that exists is whole.
    const temporary = `${folder}.${process.pid}.${Date.now()}`;
    mkdirSync(temporary, { recursive: true });
    for (const chunk of chunks) writeFileSync(path.join(temporary, chunk.fileName), chunk.code);
    try {
      renameSync(temporary, folder);
    } catch (error) {
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(folder)) throw error;
    }
  }
  return { entry: path.join(folder, main.fileName), sources: chunks.flatMap((chunk) => chunk.moduleIds).filter((id) => path.isAbsolute(id) && !id.includes("/node_modules/")) };
}
