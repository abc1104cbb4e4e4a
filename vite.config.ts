import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, minify, type Plugin } from "vite";
import { serverWorkers } from "./vite.workers.ts";

// The server bundle has three entries: the HTTP server (index.js), the operator commands (cli.js) and the
// tracing that server.js loads first when OTEL_EXPORTER_OTLP_ENDPOINT is set (tracing.js). React
// Router names every server entry after its build file, so each is named after its entry here instead.
const serverEntries: Plugin = {
  name: "server-entries",
  outputOptions: (options) => ({ ...options, entryFileNames: (chunk) => `${chunk.name}.js` }),
};

// The small scripts some pages load (public/scripts, written for people to read, comments and all) are served
// minified: the viewer's weighs on every first interview step of a slow phone (docs/decisions/0036).
function minifiedScripts(): Plugin {
  let outDir = "";
  return {
    name: "minified-scripts",
    apply: "build",
    configResolved: (config) => void (outDir = path.resolve(config.root, config.build.outDir, "scripts")),
    async closeBundle() {
      // Called after a failed build too: without the folder, say nothing, so the build's own error is the one shown.
      for (const name of (await readdir(outDir).catch(() => [] as string[])).filter((file) => file.endsWith(".js"))) {
        const file = path.join(outDir, name);
        const { code, errors } = await minify(name, await readFile(file, "utf8"), {});
        if (errors.length) throw new Error(`${name}: ${errors.map((e) => e.message).join("; ")}`);
        await writeFile(file, code);
      }
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { tsconfigPaths: true },
  // A font file is never inlined into the stylesheet (Vite inlines assets under 4 kB): every page would carry it,
  // while unicode-range lets a page fetch only the files its characters need (docs/decisions/0012-fonts.md).
  build: isSsrBuild
    ? { rollupOptions: { input: { index: "./server/app.ts", cli: "./server/cli.ts", tracing: "./server/tracing.ts" } }, assetsInlineLimit: 0 }
    : { assetsInlineLimit: 0 },
  plugins: [reactRouter(), serverWorkers(), isSsrBuild ? serverEntries : minifiedScripts()],
}));
