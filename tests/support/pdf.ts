/**
 * A small, well-formed one-page PDF written by hand (any size, the rest padding inside its content stream),
 * for tests that upload a PDF: uploads are parsed, so bytes that only start like a PDF are refused.
 */
export function readablePdf(size = 0, fill: (i: number) => number = (i) => 0x20 + (i % 90)): Buffer<ArrayBuffer> {
  const padding = Buffer.from(Array.from({ length: Math.max(0, size - 420) }, (_, i) => fill(i)));
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  const length = () => parts.reduce((n, p) => n + p.length, 0);
  const object = (n: number, body: Buffer | string) => {
    offsets[n] = length();
    parts.push(Buffer.from(`${n} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body), Buffer.from("\nendobj\n"));
  };
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>");
  object(4, Buffer.concat([Buffer.from(`<< /Length ${padding.length} >>\nstream\n`), padding, Buffer.from("\nendstream")]));
  const xref = length();
  const rows = [1, 2, 3, 4].map((n) => `${String(offsets[n]).padStart(10, "0")} 00000 n \n`).join("");
  parts.push(Buffer.from(`xref\n0 5\n0000000000 65535 f \n${rows}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return Buffer.concat(parts);
}
