import { describe, expect, test } from "vitest";
import { requestedReturn, safeReturnPath, withReturn } from "./return-to";

describe("the return address after signing in", () => {
  test("keeps a path of this site, with its query and fragment", () => {
    expect(safeReturnPath("/account/interview")).toBe("/account/interview");
    expect(safeReturnPath("/issues/3/interviews/0b7c1c1e-1111-4222-8333-944445555666?x=1#viewer-heading")).toBe(
      "/issues/3/interviews/0b7c1c1e-1111-4222-8333-944445555666?x=1#viewer-heading",
    );
    expect(safeReturnPath("/issues/../account")).toBe("/account");
  });

  test.each([
    ["another host", "//evil.example/x"],
    ["a scheme", "https://evil.example/"],
    ["javascript", "javascript:alert(1)"],
    ["a relative path", "account"],
    ["a backslash", "/\\evil.example"],
    ["a backslash later", "/a\\b"],
    ["a tab", "/\t/evil.example"],
    ["a line break", "/a\nb"],
    ["a NUL", "/a\u0000"],
    ["DEL", "/a\u007f"],
    ["the auth pages", "/auth/sign-in"],
    ["the auth root", "/auth"],
    ["nothing", ""],
    ["too long", `/${"a".repeat(2000)}`],
    ["not text", 42],
    ["null", null],
  ])("refuses %s", (_what, value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  test("read from a request, and added to an auth page's address", () => {
    expect(requestedReturn(new Request("http://x/auth/sign-in?returnTo=%2Faccount%2Finterview"))).toBe("/account/interview");
    expect(requestedReturn(new Request("http://x/auth/sign-in?returnTo=%2F%2Fevil.example"))).toBeNull();
    expect(withReturn("/auth/sign-in", "/account/interview?page=2")).toBe("/auth/sign-in?returnTo=%2Faccount%2Finterview%3Fpage%3D2");
    expect(withReturn("/auth/sign-in", null)).toBe("/auth/sign-in");
    expect(withReturn("/account/recovery-codes?used=1", "/x")).toBe("/account/recovery-codes?used=1&returnTo=%2Fx");
  });
});
