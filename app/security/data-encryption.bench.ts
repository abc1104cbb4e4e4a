/**
 * What sealing adds to a viewer step: `npx vitest bench --run app/security` (not a timed test). A step opens an
 * interview's answers and page history and seals its answers, ANX and page history again (saveInterview). The
 * sizes are the largest of the viewer benchmark's interviews (bench/viewer-step.ts, 40 pages each), rounded up.
 */
import { randomBytes } from "node:crypto";
import { bench, describe } from "vitest";
import { dataKeyring, openText, sealText } from "./data-encryption.server";

const keys = dataKeyring(randomBytes(32));
const text = (bytes: number) => JSON.stringify({ answer: "x".repeat(bytes) }).slice(0, bytes);
const plain = { vars: text(6144), xml: text(5120), engine_state: text(3072) };
const sealed = Object.fromEntries(Object.entries(plain).map(([column, value]) => [column, sealText(value, `interviews.${column}:id`, keys)]));

describe("a viewer step's sealing (6 kB answers, 5 kB ANX, 3 kB page history)", () => {
  bench("open answers and page history, seal all three", () => {
    openText(sealed.vars!, "interviews.vars:id", keys);
    openText(sealed.engine_state!, "interviews.engine_state:id", keys);
    for (const [column, value] of Object.entries(plain)) sealText(value, `interviews.${column}:id`, keys);
  });
});
