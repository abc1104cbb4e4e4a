import { describe, expect, it } from "vitest";
import { redactPersonalData, restorePersonalData } from "./redact";

describe("redactPersonalData", () => {
  it("replaces emails, phone numbers and identity numbers with numbered placeholders", () => {
    const { text, replaced } = redactPersonalData(
      "Write to ana.lim@example.org or call +65 9123 4567 or (02) 9876 5432. NRIC S1234567D, SSN 123-45-6789, NI AB 12 34 56 C, TFN 123 456 789.",
    );
    expect(text).toBe("Write to [EMAIL_1] or call [PHONE_1] or [PHONE_2]. NRIC [ID_1], SSN [ID_2], NI [ID_3], TFN [ID_4].");
    expect(replaced.get("[EMAIL_1]")).toBe("ana.lim@example.org");
    expect(replaced.get("[PHONE_1]")).toBe("+65 9123 4567");
    expect(replaced.get("[PHONE_2]")).toBe("(02) 9876 5432");
    expect(replaced.get("[ID_1]")).toBe("S1234567D");
    expect(replaced.get("[ID_3]")).toBe("AB 12 34 56 C");
  });

  it("gives the same detail the same placeholder", () => {
    const { text } = redactPersonalData("ana@example.org, again ana@example.org, then bo@example.org");
    expect(text).toBe("[EMAIL_1], again [EMAIL_1], then [EMAIL_2]");
  });

  it("keeps amounts, dates, years, ranges and short numbers", () => {
    const kept = "He owes $1,250.50 since 03/28/2024 (2024-03-28), for 2019-2024, unit 12-345, invoice 4471, 1 234 567.89 dollars.";
    expect(redactPersonalData(kept).text).toBe(kept);
  });

  it("restores the details the AI kept, and leaves placeholders it never made", () => {
    const { text, replaced } = redactPersonalData("Call 0412 345 678 or email me@example.com.");
    expect(text).toBe("Call [PHONE_1] or email [EMAIL_1].");
    expect(restorePersonalData("Please email [EMAIL_1] or phone [PHONE_1]; see [ID_9].", replaced)).toBe(
      "Please email me@example.com or phone 0412 345 678; see [ID_9].",
    );
  });

  it("replaces the names it is given as whole words in any case, and puts them back as first written", () => {
    const { text, replaced } = redactPersonalData("Ana Lim here. ANA wrote to Lim's landlord; Anabel and Limerick stay.", ["Ana", "Lim", " ", "A"]);
    expect(text).toBe("[NAME_1] [NAME_2] here. [NAME_1] wrote to [NAME_2]'s landlord; Anabel and Limerick stay.");
    expect(restorePersonalData("Hello [NAME_1] [NAME_2].", replaced)).toBe("Hello Ana Lim.");
    // Characters that mean something in a pattern are taken as they are.
    expect(redactPersonalData("Call (Jo) now", ["(Jo)"]).text).toBe("Call [NAME_1] now");
  });
});
