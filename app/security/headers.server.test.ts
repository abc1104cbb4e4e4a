import { describe, expect, it } from "vitest";
import { createNonce, securityHeaders } from "./headers.server";

describe("security headers", () => {
  it("enforce a CSP that allows scripts only from us or with the response's nonce", () => {
    const nonce = createNonce();
    const csp = securityHeaders({ nonce, production: false, https: false })["Content-Security-Policy"];
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
  });

  it("use a new nonce each time", () => {
    expect(createNonce()).not.toBe(createNonce());
    expect(createNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    // Across several refills of the pool they come from: never the same twice.
    const nonces = Array.from({ length: 1000 }, createNonce);
    expect(new Set(nonces).size).toBe(1000);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("add HSTS only in production, and upgrade requests only on https", () => {
    expect(securityHeaders({ nonce: "n", production: false, https: false })).not.toHaveProperty("Strict-Transport-Security");
    const production = securityHeaders({ nonce: "n", production: true, https: true });
    expect(production["Strict-Transport-Security"]).toMatch(/max-age=\d+/);
    expect(production["Content-Security-Policy"]).toContain("upgrade-insecure-requests");
    expect(securityHeaders({ nonce: "n", production: true, https: false })["Content-Security-Policy"]).not.toContain(
      "upgrade-insecure-requests",
    );
  });

  it("set the other protective headers", () => {
    const headers = securityHeaders({ nonce: "n", production: false, https: false });
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["Permissions-Policy"]).toContain("camera=()");
  });
});
