/**
 * Sealing benchmark (issue 30): `npx vitest bench --run app/signing` (not a timed test). What a signed download
 * adds to the unsigned one: the record page laid out (pdfkit), the document merged with it (pdf-lib), the
 * placeholder written, the file saved without object streams, and the CMS signature (SHA-256 over the file,
 * one RSA-2048 signature). vitest's table gives no median: each case's median of 15 runs after 3 warm-ups, and
 * the sealed size, are printed first.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { bench, describe } from "vitest";
import type { Answers, AnswerValue } from "~/a2j";
import { assembleDocument } from "~/documents/assemble.server";
import { certificateFromPem, makeSelfSignedCertificate } from "./certificate.server";
import { sealSignedPdf, type SigningRecord } from "./seal.server";

const GUIDES = path.resolve(import.meta.dirname, "../../db/seed/guides");
const v = (name: string, type: string, value: AnswerValue): Answers => ({ [name.toLowerCase()]: { name, type: type as never, repeating: false, values: [null, value] } });

async function assembled(guide: string, answers: Answers): Promise<Uint8Array> {
  const made = await assembleDocument({ title: guide, lang: "en", answers, readFile: (file) => readFile(path.join(GUIDES, guide, file)).then((b) => new Uint8Array(b)).catch(() => null) });
  if (!made.ok || !made.pdf) throw new Error(`${guide}: nothing assembled`);
  return made.pdf;
}

const letter = await assembled("letter-of-demand", { ...v("User full name TE", "Text", "Tan Wei Ling"), ...v("Debtor type MC", "MC", "Person"), ...v("Debtor name TE", "Text", "Lim Ah Kow") });
const reentry = await assembled("re-entry-navigator", { ...v("User name full TE", "Text", "Zoë Ångström"), ...v("Have job TF", "TF", true), ...v("PAP needed TF", "TF", true), ...v("Need housing info TF", "TF", true) });
const made = makeSelfSignedCertificate("Bench Legal Help");
const certificate = certificateFromPem(made.certificatePem, made.privateKeyPem);
const record: SigningRecord = {
  title: "Letter of demand",
  signers: [
    { name: "Tan Wei Ling", email: "tan@example.org", signedAt: new Date(), address: "198.51.100.7", method: "typed", role: "User" },
    { name: "Lim Ah Kow", email: "lim@example.org", signedAt: new Date(), address: "198.51.100.8", method: "drawn", role: "Other" },
  ],
  timeZone: "Asia/Singapore",
};

async function median(run: () => Promise<Uint8Array>, runs = 15, warmups = 3): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  for (let i = 0; i < warmups; i++) await run();
  const times: number[] = [];
  const cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    bytes = (await run()).length;
    const used = process.cpuUsage(startCpu);
    times.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { ms: mid(times), cpuMs: mid(cpu), bytes };
}

const cases: Record<string, Uint8Array> = { "letter of demand (1 page)": letter, "Re-Entry Navigator set (overlay + text)": reentry };
for (const [name, pdf] of Object.entries(cases)) {
  const m = await median(() => sealSignedPdf(pdf, record, certificate));
  console.log(`seal ${name}: median ${m.ms.toFixed(0)} ms (CPU ${m.cpuMs.toFixed(0)} ms); ${(pdf.length / 1024).toFixed(0)} kB → ${(m.bytes / 1024).toFixed(0)} kB sealed`);
}
const keys = await median(async () => new TextEncoder().encode(makeSelfSignedCertificate().certificatePem), 5, 1);
console.log(`make the self-signed certificate (RSA 2048, once per database): median ${keys.ms.toFixed(0)} ms`);

describe("sealing", () => {
  bench("letter of demand: record page + seal", async () => {
    await sealSignedPdf(letter, record, certificate);
  });
  bench("Re-Entry Navigator set: record page + seal", async () => {
    await sealSignedPdf(reentry, record, certificate);
  });
});
