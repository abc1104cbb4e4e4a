import { describe, expect, test } from "vitest";
import { daysFromDate, daysInTimeZone, daysToYmd, formatDays, parseMdy, parseUserDate, swapMonthAndDay, yearsBetween, ymdToDays } from "./dates";

describe("dates as days since 1970-01-01 (UTC)", () => {
  test("epoch, leap years, far dates", () => {
    expect(ymdToDays(1970, 1, 1)).toBe(0);
    expect(ymdToDays(1969, 12, 31)).toBe(-1);
    expect(ymdToDays(2024, 2, 29)).toBe(19782);
    expect(ymdToDays(2023, 2, 29)).toBe(null);
    expect(ymdToDays(2024, 13, 1)).toBe(null);
    expect(formatDays(ymdToDays(1900, 3, 1) as number)).toBe("03/01/1900");
    expect(daysToYmd(19782)).toEqual({ year: 2024, month: 2, day: 29 });
  });
  test("round trip for every day of several years (no DST drift)", () => {
    const start = ymdToDays(1999, 1, 1) as number;
    for (let d = start; d < start + 366 * 30; d++) {
      expect(parseMdy(formatDays(d))).toBe(d);
    }
  });
  test("input forms and two-digit years", () => {
    expect(parseMdy("3/8/24")).toBe(ymdToDays(2024, 3, 8));
    expect(parseMdy("3/8/69")).toBe(ymdToDays(1969, 3, 8));
    expect(parseMdy("03082024")).toBe(ymdToDays(2024, 3, 8));
    expect(parseMdy("030824")).toBe(ymdToDays(2024, 3, 8));
    expect(parseUserDate("2024-03-08")).toBe(ymdToDays(2024, 3, 8));
    expect(parseUserDate("8 March 2024")).toBe(null);
  });
  test("ages and the ANX day/month swap", () => {
    expect(yearsBetween(ymdToDays(2000, 2, 29) as number, ymdToDays(2024, 2, 28) as number)).toBe(23);
    expect(yearsBetween(ymdToDays(2000, 2, 29) as number, ymdToDays(2024, 2, 29) as number)).toBe(24);
    expect(swapMonthAndDay("12/31/2020")).toBe("31/12/2020");
    expect(swapMonthAndDay("not a date")).toBe("not a date");
  });
  test("today from an instant: UTC day or the user's time zone", () => {
    const instant = new Date(Date.UTC(2024, 2, 15, 3, 30)); // 03:30 UTC on 15 March
    expect(daysFromDate(instant)).toBe(ymdToDays(2024, 3, 15));
    expect(daysInTimeZone(instant, "America/Chicago")).toBe(ymdToDays(2024, 3, 14));
    expect(daysInTimeZone(instant, "Asia/Tokyo")).toBe(ymdToDays(2024, 3, 15));
    expect(daysInTimeZone(instant, "Not/A_Zone")).toBe(null);
  });
});
