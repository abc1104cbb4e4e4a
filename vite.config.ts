import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { serverWorkers } from "./vite.workers.ts";

// The server bundle has three entries: the HTTP server (index.js), the operator commands (cli.js) and the
// tracing that server.js loads first when OTEL_EXPORTER_OTLP_ENDPOINT is set (tracing.js). React
// Router names every server entry after its build file, so each is named after its entry here instead.
const serverEntries: Plugin = {
  name: "server-entries",
  outputOptions: (options) => ({ ...options, entryFileNames: (chunk) => `${chunk.name}.js` }),
};

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { tsconfigPaths: true },
  build: isSsrBuild ? { rollupOptions: { input: { index: "./server/app.ts", cli: "./server/cli.ts", tracing: "./server/tracing.ts" } } } : {},
  plugins: [reactRouter(), serverWorkers(), isSsrBuild && serverEntries],
}));
