import { e2eDataDir, noAiDataDir } from "../../playwright.config";
import { E2E_LOG_DIR, e2eDataDirs, scanServerLogs } from "../support/log-scan";

/**
 * After every e2e run: the servers' logs (E2E_LOG_DIR) must hold no email address, no test person's name and
 * no emailed link's token (issue 24). A finding fails the run, naming the file and line.
 */
export default async function scanLogsForPersonalData() {
  // The last lines of a request answered as the suite ended are written already: the log writes each line at once.
  const { files, lines, findings, personal } = scanServerLogs(E2E_LOG_DIR, e2eDataDirs([e2eDataDir, noAiDataDir]));
  const summary = `${files.length} server log(s), ${lines} lines, against ${personal.emails.length} email addresses, ${personal.names.length} names and ${personal.tokens.length} tokens`;
  if (findings.length) {
    const shown = findings.slice(0, 20).map((f) => `  ${f.file}:${f.line}: ${f.what} ${f.sample}`);
    throw new Error(`Personal data in the server logs (${findings.length} finding(s); ${summary}):\n${shown.join("\n")}`);
  }
  console.log(`Log scan: no personal data in ${summary}.`);
}
