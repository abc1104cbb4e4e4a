import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, refusal } from "./request-guard.server";

const base = { method: "POST", host: "help.example.org", protocol: "https", origin: undefined, contentLength: "100", publicOrigin: "https://help.example.org" };

describe("requests refused before the app", () => {
  it("lets reads and same-site posts through", () => {
    expect(refusal({ ...base, method: "GET", origin: "https://evil.example" })).toBeNull();
    expect(refusal({ ...base, origin: "https://help.example.org" })).toBeNull();
    expect(refusal(base)).toBeNull();
  });

  it("refuses a post from another site", () => {
    expect(refusal({ ...base, origin: "https://evil.example" })).toEqual({ status: 403, message: "Forms can only be sent from this site." });
    expect(refusal({ ...base, origin: "http://help.example.org" })?.status).toBe(403);
  });

  it("refuses a body over the limit, before reading it", () => {
    expect(refusal({ ...base, contentLength: String(MAX_BODY_BYTES + 1) })?.status).toBe(413);
    expect(refusal({ ...base, contentLength: String(5 * 1024 * 1024 + 1000) })).toBeNull();
  });
});
