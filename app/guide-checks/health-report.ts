// The health check's report as pages show it (no server code: the version page renders it).
import type { Exploration, HealthFinding } from "~/a2j";

/** What the health check found, and how much it explored. */
export interface HealthReport extends Omit<Exploration, "findings"> {
  findings: HealthFinding[];
  /** How long it took (seconds, to the hundredth). */
  seconds: number;
  checkedAt: string;
}

/** How much was explored, in words: "38 of 39 pages reached, 377 states, 0.2 seconds; the whole guide was explored." */
export function explorationSummary(report: HealthReport): string {
  const scope = report.complete
    ? "every path the check could take was explored"
    : report.stoppedBy === "time"
      ? "the check ran out of time, so this is a partial check"
      : "the check reached its limit of states, so this is a partial check";
  return `${report.pagesReached} of ${report.pagesTotal} pages reached, ${report.states.toLocaleString("en")} states, ${report.seconds.toFixed(2)} seconds: ${scope}.`;
}
