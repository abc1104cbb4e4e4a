import { describe, expect, it, vi } from "vitest";
import { readOrEmpty } from "./content.server";

describe("public content reads", () => {
  it("give the content when the read works", async () => {
    expect(await readOrEmpty("x", async () => ({ name: "Terms" }), null)).toEqual({ name: "Terms" });
  });

  it("leave the page empty, not an error page, when the read fails, and log why", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await readOrEmpty("the countries", () => Promise.reject(new Error("database is locked")), [])).toEqual([]);
    expect(log).toHaveBeenCalledWith("[content] reading the countries failed:", expect.any(Error));
    log.mockRestore();
  });
});
