import fc from "fast-check";
import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { readSignedCookie } from "./signed-cookie.server";

const secret = "test-secret-test-secret-test-secret-0000";
const cookie = createCookie("session", { httpOnly: true, sameSite: "lax", path: "/", secrets: [secret] });
const header = (setCookie: string) => setCookie.split(";")[0]!;

describe("readSignedCookie", () => {
  it("reads what React Router's createCookie wrote, as its parse does", async () => {
    const id = "a".repeat(43);
    const written = header(await cookie.serialize(id));
    expect(readSignedCookie(written, "session", [secret])).toBe(id);
    expect(readSignedCookie(`other=1; ${written}; last=2`, "session", [secret])).toBe(id);
    expect(readSignedCookie(`${written}`, "session", ["another-secret-another-secret-0000"])).toBeNull();
    expect(readSignedCookie(`${written}`, "session", ["another-secret-another-secret-0000", secret])).toBe(id);
    expect(readSignedCookie(null, "session", [secret])).toBeNull();
    expect(readSignedCookie("other=1", "session", [secret])).toBeNull();
    expect(readSignedCookie("session=", "session", [secret])).toBe("");
  });

  it("refuses a changed value or signature", async () => {
    const written = header(await cookie.serialize("b".repeat(43)));
    const value = decodeURIComponent(written.slice("session=".length));
    const [data, signature] = [value.slice(0, value.lastIndexOf(".")), value.slice(value.lastIndexOf(".") + 1)];
    const other = decodeURIComponent(header(await cookie.serialize("c".repeat(43))).slice("session=".length));
    for (const forged of [
      `${other.slice(0, other.lastIndexOf("."))}.${signature}`,
      `${data}.${signature.slice(0, -1)}`,
      `${data}.${signature}=`,
      `${data}.`,
      data,
      `${data}.${signature}.${signature}`,
    ]) {
      expect(readSignedCookie(`session=${encodeURIComponent(forged)}`, "session", [secret])).toBeNull();
    }
  });

  it("agrees with React Router's parse on any header", async () => {
    const values = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.constant("x".repeat(43)), fc.jsonValue());
    await fc.assert(
      fc.asyncProperty(
        values,
        fc.array(fc.tuple(fc.constantFrom("session", "other", " session", "session ", "sess"), fc.string()), { maxLength: 3 }),
        fc.constantFrom("; ", ";", " ; "),
        fc.boolean(),
        async (value, extra, separator, signedFirst) => {
          const signed = header(await cookie.serialize(value));
          const pairs = extra.map(([name, raw]) => `${name}=${raw}`);
          const text = (signedFirst ? [signed, ...pairs] : [...pairs, signed]).join(separator);
          expect(readSignedCookie(text, "session", [secret])).toEqual(await cookie.parse(text));
        },
      ),
      { numRuns: 500 },
    );
  });
});
