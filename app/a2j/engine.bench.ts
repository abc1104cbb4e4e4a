/**
 * Engine benchmark: `npx vitest bench --run app/a2j` (not a timed test).
 * Targets (issue 3): parse a ~500 kB guide ≤ 20 ms; a transition (submit + render model) ≤ 0.2 ms median.
 * The "summary" task also prints medians of 10,000 transitions.
 */
import { bench, describe } from "vitest";
import { syntheticGuide } from "./__fixtures__/synthetic";
import { currentPage, startInterview, submitPage, type InterviewState } from "./flow";
import { renderPage } from "./page-view";
import { loadGuide } from "./guide";
import type { Guide } from "./types";

const TODAY = 19797;
const synthetic = syntheticGuide(400);
const loaded = loadGuide(synthetic.json);
if (!loaded.ok) throw new Error(loaded.error);
const guide: Guide = loaded.guide;

function fresh(): InterviewState {
  const r = startInterview(guide, TODAY);
  if (!r.ok) throw new Error(r.error.message);
  return r.state;
}

let state = fresh();
function transition(inPlace = true): void {
  const page = currentPage(state) ?? "";
  const r = submitPage(guide, state, { pageName: page, buttonIndex: 0, values: synthetic.answersFor(page) }, TODAY, { inPlace });
  if (!r.ok) throw new Error(r.error.message);
  if (r.outcome.kind === "invalid") throw new Error(`invalid on ${page}: ${r.outcome.errors[0]?.message}`);
  state = r.outcome.kind === "special" ? fresh() : r.state;
  renderPage(guide, state, TODAY);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

describe("a2j engine", () => {
  bench(`loadGuide (${Math.round(synthetic.json.length / 1024)} kB, 400 pages)`, () => {
    const r = loadGuide(synthetic.json);
    if (!r.ok) throw new Error(r.error);
  });

  bench("transition (inPlace): submit + next page render model", () => {
    transition(true);
  });

  bench("transition (copying state): submit + next page render model", () => {
    transition(false);
  });

  bench(
    "summary: 10,000 transitions (prints medians)",
    () => {
      const loads: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        loadGuide(synthetic.json);
        loads.push(performance.now() - t0);
      }
      const small = syntheticGuide(170).json; // ≈ 500 kB
      const smallLoads: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        loadGuide(small);
        smallLoads.push(performance.now() - t0);
      }
      console.log(`guide ${Math.round(small.length / 1024)} kB (170 pages): load median ${median(smallLoads).toFixed(2)} ms`);
      const run = (inPlace: boolean) => {
        state = fresh();
        const times: number[] = [];
        for (let i = 0; i < 10_000; i++) {
          const t0 = performance.now();
          transition(inPlace);
          times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        return `median ${median(times).toFixed(4)} ms, p95 ${times[9500]?.toFixed(4)} ms`;
      };
      console.log(
        `guide ${Math.round(synthetic.json.length / 1024)} kB, ${Object.keys(guide.vars).length} variables: load median ${median(loads).toFixed(2)} ms; ` +
          `10,000 transitions inPlace: ${run(true)}; copying: ${run(false)}`,
      );
    },
    { iterations: 1, warmupIterations: 0 },
  );
});
