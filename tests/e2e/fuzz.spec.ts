import { expect, test } from "@playwright/test";
import { declaredRouteModules, fuzzTargets, runFuzz } from "../support/fuzz";
import { rawRequest, requestBytes, serverPid } from "../support/raw-http";

// 2,000 malformed requests across every route of app/routes.ts and /viewer (tests/support/fuzz.ts):
// no answer may be a 5xx, none may hang, and the server must still be there. `npm run fuzz` runs a longer one.
const port = Number(process.env.E2E_PORT ?? 3210);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

test("the fuzz targets cover every route module of app/routes.ts", () => {
  expect(Object.keys(fuzzTargets).filter((key) => key !== "viewer").sort()).toEqual(declaredRouteModules().sort());
});

test("2,000 malformed requests: no 5xx, no hang, the server still answers", async () => {
  test.setTimeout(120_000);
  const pid = serverPid(port);
  const result = await runFuzz(port, 2_000, seed);
  const note = `seed ${seed}: ${JSON.stringify(result.byStatus)}`;
  test.info().annotations.push({ type: "fuzz", description: note });
  console.log(note);
  expect(result.total).toBe(2_000);
  expect(result.failures.map((f) => `${f.label}: ${f.outcome.status ?? f.outcome.outcome} ${f.outcome.body.slice(0, 200)}`), `seed ${seed}`).toEqual([]);
  // Most were answered (a few are cut off by the client on purpose, or closed by the server).
  expect(Object.entries(result.byStatus).filter(([key]) => /^\d+$/.test(key)).reduce((sum, [, n]) => sum + n, 0)).toBeGreaterThan(1_600);
  if (pid) expect(serverPid(port)).toBe(pid);
  expect((await rawRequest(port, requestBytes("GET", "/healthz", [["Host", "localhost"]]))).status).toBe(200);
});
