// The health check's cost (issue 32: "the 356-page real guide is checked in ≤ 15 s on this machine"): each guide
// checked BENCH_RUNS times (5), printing pages reached, states, presses and the median of the wall and CPU
// seconds. Guides: the demo guides, a synthetic 356-page guide (app/a2j/__fixtures__/synthetic.ts: loops, heavy
// scripts, 1,780 variables), and any guide folder or zip named in GUIDE_CHECK_PATHS (comma-separated), such as
// a reference guide that may be measured here but not copied into the repository.
// Usage: npm run bench:guide-check   (GUIDE_CHECK_PATHS=/path/to/guide,/other.zip BENCH_RUNS=5)
import { daysFromDate, loadGuide, withPickLists } from "~/a2j";
import { syntheticGuide } from "~/a2j/__fixtures__/synthetic";
import { checkGuideHealth } from "~/guide-checks/health.server";
import { checkGuideFiles, readGuideFolder, readGuideSource } from "~/guides/import.server";

const runs = Number(process.env.BENCH_RUNS ?? 5);
const today = daysFromDate(new Date());
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function measure(label: string, guide: ReturnType<typeof checkGuideFiles>["guide"], files: Map<string, Uint8Array>) {
  const wall: number[] = [];
  const cpu: number[] = [];
  let last: Awaited<ReturnType<typeof checkGuideHealth>> | null = null;
  for (let i = 0; i < runs; i++) {
    const usage = process.cpuUsage();
    last = await checkGuideHealth(guide, files, { today, seconds: 60 });
    const used = process.cpuUsage(usage);
    wall.push(last.seconds);
    cpu.push((used.user + used.system) / 1e6);
  }
  const r = last!;
  const errors = r.findings.filter((f) => f.severity === "error").length;
  console.log(
    `${label.padEnd(34)} ${`${r.pagesReached}/${r.pagesTotal}`.padStart(8)} pages ${String(r.states).padStart(7)} states ${String(r.transitions).padStart(7)} presses ` +
      `${median(wall).toFixed(2).padStart(6)} s wall ${median(cpu).toFixed(2).padStart(6)} s CPU  ${r.complete ? "complete" : `partial (${r.stoppedBy})`}, ${errors} errors, ${r.findings.length - errors} warnings`,
  );
}

async function fromFiles(label: string, files: Map<string, Uint8Array>) {
  const checked = checkGuideFiles(files);
  const lists = Object.fromEntries(checked.others.filter(([f]) => /\.xml$/i.test(f)).map(([f, b]) => [f, new TextDecoder().decode(b)]));
  await measure(label, withPickLists(checked.guide, lists), new Map(checked.others));
}

console.log(`Health check, median of ${runs} runs (wall seconds are the check's own; the machine may be shared)`);
for (const id of ["letter-of-demand", "tenancy-deposit", "case-summary", "re-entry-navigator"]) await fromFiles(id, await readGuideFolder(`db/seed/guides/${id}`));
for (const pages of [356, 400]) {
  const loaded = loadGuide(syntheticGuide(pages).json);
  if (!loaded.ok) throw new Error(loaded.error);
  await measure(`synthetic ${pages} pages`, loaded.guide, new Map());
}
for (const source of (process.env.GUIDE_CHECK_PATHS ?? "").split(",").filter(Boolean)) {
  await fromFiles(source.split("/").filter(Boolean).slice(-2).join("/"), await readGuideSource(source));
}

