import { describe, expect, it } from "vitest";
import { parseFrontMatter, readSeedContent } from "./seed";

describe("front matter", () => {
  it("splits key: value lines from the markdown body", () => {
    const { attributes, body } = parseFrontMatter("---\nid: 7\nname: A: B\nempty: \n---\n# Body\n");
    expect(attributes).toEqual({ id: "7", name: "A: B", empty: "" });
    expect(body).toBe("# Body\n");
  });
  it("treats a file without front matter as body only", () => {
    expect(parseFrontMatter("Just text")).toEqual({ attributes: {}, body: "Just text" });
  });
});

describe("the seed content files", () => {
  it("are complete: countries, issues marked as samples, home page and legal documents", async () => {
    const seed = await readSeedContent("db/seed");
    const countryIds = new Set(seed.countries.map((c) => c.id));
    expect(seed.countries.length).toBeGreaterThanOrEqual(3);
    for (const issue of seed.issues) {
      expect(countryIds.has(issue.country)).toBe(true);
      expect(issue.content).toMatch(/Sample content/);
    }
    expect(new Set(seed.issues.map((i) => i.id)).size).toBe(seed.issues.length);
    expect(seed.legal.map((d) => d.slug).sort()).toEqual(["about", "privacy", "terms"]);
    const about = seed.legal.find((d) => d.slug === "about")?.content ?? "";
    expect(about).toMatch(/retrieval-augmented generation/i);
    expect(about).toMatch(/case law/i);
    for (const step of ["Sign in", "Create or upload documents", "Understand your situation", "Understand strategies", "Select an approach", "Generate documents", "Review and use"]) {
      expect(about).toContain(step);
    }
    expect(seed.home.headline).not.toBe("");
  });

  it("explains which file is wrong", async () => {
    await expect(readSeedContent("db/does-not-exist")).rejects.toThrow(/does-not-exist/);
  });
});
