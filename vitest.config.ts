import { defineConfig } from "vitest/config";
import { serverWorkers } from "./vite.workers.ts";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  // Worker threads' modules are built to JavaScript for the tests as for the server (vite.workers.ts).
  plugins: [serverWorkers()],
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "server/**/*.test.ts", "tests/unit/**/*.test.{ts,tsx}"],
    environment: "node",
    // Data-layer suites each create their own database, so files may run in parallel.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
