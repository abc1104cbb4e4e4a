import { describe, expect, it } from "vitest";
import { captureLogs } from "~/observability/log.server";
import { readOrEmpty } from "./content.server";

describe("public content reads", () => {
  it("give the content when the read works", async () => {
    expect(await readOrEmpty("x", async () => ({ name: "Terms" }), null)).toEqual({ name: "Terms" });
  });

  it("leave the page empty, not an error page, when the read fails, and log why", async () => {
    const log = captureLogs();
    try {
      expect(await readOrEmpty("the countries", () => Promise.reject(new Error("database is locked")), [])).toEqual([]);
      expect(log.lines()).toMatchObject([{ level: "error", component: "content", msg: "reading the countries failed", err: { message: "database is locked" } }]);
    } finally {
      log.restore();
    }
  });
});
