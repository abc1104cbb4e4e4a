import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_FILE_BYTES, bodyKind, refusal, refusalLine } from "./request-guard.server";

const base = { method: "POST", host: "help.example.org", protocol: "https", origin: undefined, contentLength: "100", publicOrigin: "https://help.example.org" };

describe("requests refused before the app", () => {
  it("lets reads and same-site posts through", () => {
    expect(refusal({ ...base, method: "GET", origin: "https://evil.example" })).toBeNull();
    expect(refusal({ ...base, method: "HEAD" })).toBeNull();
    // The organisation's API takes DELETE (app/api/); nothing else does.
    expect(refusal({ ...base, method: "DELETE", path: "/api/v1/webhooks/x" })).toBeNull();
    expect(refusal({ ...base, method: "DELETE", path: "/account" })?.status).toBe(405);
    expect(refusal({ ...base, origin: "https://help.example.org" })).toBeNull();
    expect(refusal({ ...base, origin: "null" })).toBeNull();
    expect(refusal(base)).toBeNull();
  });

  it("refuses a post from another site", () => {
    expect(refusal({ ...base, origin: "https://evil.example" })).toMatchObject({ status: 403, message: "Forms can only be sent from this site." });
    expect(refusal({ ...base, origin: "http://help.example.org" })?.status).toBe(403);
    // The router builds its URL from the proxy's X-Forwarded-Host: the origin must match that host.
    expect(refusal({ ...base, publicOrigin: "http://localhost:3000", origin: "https://help.example.org", urlHost: "evil.example" })?.status).toBe(403);
    expect(refusal({ ...base, publicOrigin: "http://localhost:3000", origin: "https://proxy.example.org", urlHost: "proxy.example.org" })).toBeNull();
  });

  it("refuses a declared body over the limit, before reading it", () => {
    expect(refusal({ ...base, contentLength: String(MAX_BODY_BYTES + 1) })).toMatchObject({ status: 413, message: "What was sent is too large." });
    expect(refusal({ ...base, contentLength: String(MAX_BODY_BYTES) })).toBeNull();
    expect(refusal({ ...base, contentLength: String(5 * 1024 * 1024 + 1000) })).toBeNull();
  });

  it("allows GET, HEAD and POST only", () => {
    for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "get"]) {
      expect(refusal({ ...base, method }), method).toMatchObject({ status: 405, message: "This address does not accept that method." });
    }
  });

  it("refuses an empty or missing host, whatever the method", () => {
    for (const host of ["", "  ", undefined]) {
      expect(refusal({ ...base, method: "GET", host })).toMatchObject({ status: 400 });
      expect(refusal({ ...base, host })).toMatchObject({ status: 400 });
    }
  });
});

describe("how a POST body is read", () => {
  it("reads forms on every route", () => {
    expect(bodyKind("/support/contact-us", "application/x-www-form-urlencoded")).toBe("urlencoded");
    expect(bodyKind("/auth/sign-in", "Application/X-WWW-Form-Urlencoded; charset=UTF-8")).toBe("urlencoded");
    expect(bodyKind("/viewer", "multipart/form-data; boundary=----x")).toBe("multipart");
    expect(bodyKind("/viewer", 'multipart/form-data; charset=utf-8; BOUNDARY="a b"')).toBe("multipart");
  });

  it("reads JSON on /assemble alone", () => {
    expect(bodyKind("/assemble", "application/json; charset=utf-8")).toBe("json");
    // The organisation's API takes JSON, and a POST with no body at all.
    expect(bodyKind("/api/v1/prepared-interviews", "application/json")).toBe("json");
    expect(bodyKind("/api/v1/webhooks/x/rotate-secret", undefined)).toBe("urlencoded");
    expect(bodyKind("/support/contact-us", undefined)).toMatchObject({ status: 400 });
    expect(bodyKind("/support/contact-us", "application/json")).toMatchObject({ status: 400, message: "What was sent could not be read." });
    expect(bodyKind("/assemble/", "application/json")).toMatchObject({ status: 400 });
  });

  it("refuses what is not a form, unread", () => {
    for (const type of [undefined, "", "text/plain", "application/xml", "multipart/form-data", "multipart/form-data; boundary=", "multipart/mixed; boundary=x", "form"]) {
      expect(bodyKind("/auth/sign-in", type), String(type)).toMatchObject({ status: 400, message: "What was sent could not be read." });
    }
  });

  it("cuts a file one byte past what an attachment may have", () => {
    expect(MAX_FILE_BYTES).toBe(5 * 1024 * 1024);
    expect(MAX_FILE_BYTES).toBeLessThan(MAX_BODY_BYTES);
  });
});

describe("the log line of a refusal", () => {
  it("names the method, the path without its query, the status and the reason", () => {
    expect(refusalLine({ method: "POST", path: "/auth/reset-password/password?token=secret" }, 413, "body over the limit")).toBe(
      "refused POST /auth/reset-password/password 413: body over the limit",
    );
  });

  it("cannot be made into several lines or a long one", () => {
    const line = refusalLine({ method: "GET", path: `/a\nrefused GET / 200: fake\r${"x".repeat(1000)}` }, 404, "no\u2028such");
    expect(line).not.toMatch(/[\n\r\u2028]/);
    expect(line).toContain("/a\\u000arefused");
    expect(line.length).toBeLessThan(300);
  });
});
