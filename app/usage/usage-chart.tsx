import type { ReactNode } from "react";
import { languageName } from "~/guides/guide-language";
import type { LanguageUsage, MonthUsage, UsageCounts } from "./usage";

/** The five numbers, in the order every table and the chart show them. */
export const USAGE_SERIES: { key: keyof UsageCounts; label: string }[] = [
  { key: "started", label: "Started" },
  { key: "completed", label: "Completed" },
  { key: "abandoned", label: "Abandoned" },
  { key: "downloaded", label: "Documents downloaded" },
  { key: "signed", label: "Documents signed" },
];

const longMonth = new Intl.DateTimeFormat("en-GB", {
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const shortMonth = new Intl.DateTimeFormat("en-GB", {
  month: "short",
  timeZone: "UTC",
});
const dateOf = (month: string) => new Date(`${month}-01T00:00:00.000Z`);

/** "March 2030" for "2030-03". */
export function monthName(month: string): string {
  return longMonth.format(dateOf(month));
}

const BAR = 7;
const GROUP = USAGE_SERIES.length * BAR + 8;
const HEIGHT = 120;
const LABELS = 16;

/**
 * The months as grouped bars, drawn on the server (no script). Only a picture of the table that follows it:
 * hidden from assistive technology, which reads the table (the source of truth). Colours come from the
 * stylesheet (the CSP allows no inline styles); the legend names them, with the same swatches.
 */
export function UsageChart({ months }: { months: MonthUsage[] }) {
  const max = Math.max(1, ...months.flatMap((m) => USAGE_SERIES.map((s) => m[s.key])));
  const width = months.length * GROUP;
  return (
    <div className="usage-chart" aria-hidden="true">
      <ul className="usage-legend">
        {USAGE_SERIES.map((series) => (
          <li key={series.key}>
            <svg viewBox="0 0 10 10" width="14" height="14" focusable="false">
              <rect width="10" height="10" className={`usage-series-${series.key}`} />
            </svg>
            {series.label}
          </li>
        ))}
      </ul>
      <svg viewBox={`0 0 ${width} ${HEIGHT + LABELS}`} className="usage-bars" focusable="false" preserveAspectRatio="xMidYMid meet">
        <text x="0" y="8" className="usage-scale">
          {max}
        </text>
        <line x1="0" x2={width} y1={HEIGHT + 0.5} y2={HEIGHT + 0.5} className="usage-axis" />
        {months.map((month, i) => (
          <g key={month.month} transform={`translate(${i * GROUP + 4} 0)`}>
            {USAGE_SERIES.map((series, j) => {
              const height = (month[series.key] / max) * (HEIGHT - 12);
              return height > 0 ? (
                <rect key={series.key} x={j * BAR} y={HEIGHT - height} width={BAR - 1} height={height} className={`usage-series-${series.key}`} />
              ) : null;
            })}
            <text x={(GROUP - 8) / 2} y={HEIGHT + 12} textAnchor="middle" className="usage-month">
              {shortMonth.format(dateOf(month.month))}
            </text>
          </g>
        ))}
      </svg>
    </div>
  );
}

/** The numbers of the chart, month by month: the page's source of truth. */
export function UsageMonthTable({ months, caption }: { months: MonthUsage[]; caption: string }) {
  return <UsageCountsTable heading="Month" rows={months.map((month) => ({ key: month.month, label: monthName(month.month), counts: month }))} caption={caption} />;
}

/** The counts by the language interviews ran in; events from before languages were recorded, apart. */
export function UsageLanguageTable({ languages, caption }: { languages: LanguageUsage[]; caption: string }) {
  const rows = languages.map((row) => ({
    key: row.language ?? "",
    label: row.language === null ? "Not recorded (before languages were counted)" : `${languageName(row.language)} (${row.language})`,
    counts: row,
  }));
  return <UsageCountsTable heading="Language" rows={rows} caption={caption} />;
}

/** A table of counts, a row for each month or language: its name, then each series. */
function UsageCountsTable({ heading, rows, caption }: { heading: string; rows: { key: string; label: string; counts: UsageCounts }[]; caption: string }) {
  return (
    <UsageTable label={caption}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{heading}</th>
          {USAGE_SERIES.map((series) => (
            <th scope="col" key={series.key} className="number">
              {series.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            {USAGE_SERIES.map((series) => (
              <td key={series.key} className="number">
                {row.counts[series.key]}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </UsageTable>
  );
}

/**
 * A table of numbers that scrolls sideways when the screen is narrower than it: the scrolling box is a named
 * region that takes focus, so it can be scrolled from the keyboard too.
 */
export function UsageTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll usage-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className="data-table usage-table">{children}</table>
    </div>
  );
}
