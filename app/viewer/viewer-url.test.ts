import { describe, expect, it } from "vitest";
import { parseViewerTarget, viewerUrl } from "./viewer.server";

describe("the viewer's address", () => {
  const issue = { id: 3, guideId: "case-summary" };
  const person = "6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
  const interview = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  const params = (url: string) => new URL(url, "http://localhost").searchParams;

  it("carries the spec's parameters, and the interview it names", () => {
    const url = viewerUrl(issue, interview, person);
    expect(Object.fromEntries(params(url))).toMatchObject({
      guideUrl: "/interview-guides/case-summary",
      guideId: "case-summary",
      issueId: "3",
      interviewId: interview,
      getDataUrl: `/interviews/${interview}/answers`,
    });
    expect(parseViewerTarget(new URL(url, "http://localhost"))).toEqual({ preview: false, issueId: 3, interviewId: interview, guideId: "case-summary" });
  });

  it("never carries the account id: userId is an opaque value for that person's interview", () => {
    const url = viewerUrl(issue, interview, person);
    expect(url).not.toContain(person);
    const opaque = params(url).get("userId")!;
    expect(opaque).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(params(viewerUrl(issue, interview, person)).get("userId")).toBe(opaque);
    expect(params(viewerUrl(issue, null, person)).get("userId")).not.toBe(opaque);
    expect(params(viewerUrl(issue, interview, "another-person")).get("userId")).not.toBe(opaque);
  });
});
