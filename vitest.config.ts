import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "server/**/*.test.ts", "tests/unit/**/*.test.{ts,tsx}"],
    environment: "node",
    // Data-layer suites each create their own database, so files may run in parallel.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
