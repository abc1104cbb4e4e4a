import { describe, expect, test } from "vitest";
import { normalisedPhone } from "./phone-countries";
import { authMessages, codeSchema, signUpSchema } from "./schemas";

describe("phone numbers as people type them", () => {
  test.each([
    ["SG", "91234567", "SG", "+6591234567"],
    ["SG", "+65 9123 4567", "SG", "+6591234567"],
    ["SG", "9123-4567", "SG", "+6591234567"],
    ["SG", "(9123) 45.67", "SG", "+6591234567"],
    ["GB", "(020) 7946 0958", "GB", "+442079460958"],
    // A leading plus names the country, whatever was chosen.
    ["SG", "+44 20 7946 0958", "GB", "+442079460958"],
    ["SG", "1", "SG", "+651"],
  ])("%s %s → %s %s", (chosen, typed, country, e164) => {
    expect(normalisedPhone(chosen, typed)).toMatchObject({ country: { code: country }, e164 });
  });

  test.each([["12 ab"], ["123456789012"], ["+"], ["++65 9123 4567"], ["+999 1234"], [""], ["9123 4567 ext 2"]])("refuses %j", (typed) => {
    expect(normalisedPhone("SG", typed)).toBeNull();
  });

  test("the sign-up form says so on the number; a code outside the list is refused", () => {
    const base = { firstName: "Ana", lastName: "Lim", email: "ana@example.org", phoneCountry: "SG" };
    expect(signUpSchema.safeParse({ ...base, phoneNumber: "+65 9123 4567" }).success).toBe(true);
    const bad = signUpSchema.safeParse({ ...base, phoneNumber: "12 ab" });
    expect(bad.error?.issues).toEqual([expect.objectContaining({ path: ["phoneNumber"], message: authMessages.phoneInvalid })]);
    expect(signUpSchema.safeParse({ ...base, phoneCountry: "XX", phoneNumber: "9123" }).error?.issues.map((i) => i.path)).toEqual([["phoneCountry"]]);
  });
});

describe("two-factor codes as apps show them", () => {
  test.each([["123456"], ["123 456"], [" 123-456 "], ["1 2 3 4 5 6"]])("%j is 123456", (typed) => {
    expect(codeSchema.parse({ code: typed }).code).toBe("123456");
  });
  test.each([["12345"], ["1234567"], ["12a456"], ["123_456"]])("%j is refused", (typed) => {
    expect(codeSchema.safeParse({ code: typed }).error?.issues[0]?.message).toBe(authMessages.codeInvalid);
  });
});
