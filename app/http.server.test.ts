import { describe, expect, it } from "vitest";
import { backHref, parseId } from "./http.server";

const request = (url: string, referer?: string) => new Request(url, { headers: referer ? { referer } : {} });

describe("backHref", () => {
  it("goes back to the referring page of this site", () => {
    expect(backHref(request("http://site.test/nope", "http://site.test/issues/2?x=1"))).toBe("/issues/2?x=1");
  });
  it("goes home for other sites, no referrer or the same page", () => {
    expect(backHref(request("http://site.test/nope", "https://evil.example/page"))).toBe("/");
    expect(backHref(request("http://site.test/nope"))).toBe("/");
    expect(backHref(request("http://site.test/nope", "http://site.test/nope"))).toBe("/");
    expect(backHref(request("http://site.test/nope", "not a url"))).toBe("/");
  });
});

describe("parseId", () => {
  it("accepts positive integers only", () => {
    expect(parseId("42")).toBe(42);
    for (const value of [undefined, "", "0", "-1", "1.5", "1e3", "abc", "12abc", "99999999999", "007"]) {
      expect(parseId(value)).toBeNull();
    }
  });
});
