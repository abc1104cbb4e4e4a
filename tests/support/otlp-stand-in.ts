import http from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in for an OpenTelemetry collector's OTLP/HTTP receiver: it takes POST /v1/traces with a protobuf
// ExportTraceServiceRequest (what @opentelemetry/exporter-trace-otlp-proto sends by default), reads the spans out
// of it with a small reader of protobuf's wire format, and answers as a collector does (200, an empty
// ExportTraceServiceResponse). Used by tests/e2e/observability.spec.ts.
//   npx tsx tests/support/otlp-stand-in.ts 4318   runs one by hand and prints each span it receives.

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** The instrumentation that made it (@opentelemetry/instrumentation-http…). */
  scope: string;
  /** The resource's attributes (service.name…). */
  resource: Record<string, string | number | boolean>;
}

type Field = { number: number; wireType: number; value: bigint | Uint8Array };

/** The fields of one protobuf message, in order (varints as bigint, length-delimited as bytes). */
function fields(bytes: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = () => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= bytes.length) throw new Error("a protobuf message ends inside a varint");
      const byte = bytes[at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
    }
  };
  const take = (length: number) => {
    if (at + length > bytes.length) throw new Error("a protobuf field runs past the end of its message");
    const value = bytes.subarray(at, at + length);
    at += length;
    return value;
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wireType = key & 7;
    if (wireType === 0) out.push({ number, wireType, value: varint() });
    else if (wireType === 1) out.push({ number, wireType, value: take(8) });
    else if (wireType === 2) out.push({ number, wireType, value: take(Number(varint())) });
    else if (wireType === 5) out.push({ number, wireType, value: take(4) });
    else throw new Error(`protobuf wire type ${wireType} is not used by OTLP`);
  }
  return out;
}

const bytesOf = (field: Field) => field.value as Uint8Array;
const text = (field: Field) => Buffer.from(bytesOf(field)).toString("utf8");
const hex = (field: Field | undefined) => (field ? Buffer.from(bytesOf(field)).toString("hex") : "");
const all = (message: Uint8Array, number: number) => fields(message).filter((field) => field.number === number);
const first = (message: Uint8Array, number: number) => fields(message).find((field) => field.number === number);

/** opentelemetry.proto.common.v1.AnyValue: string 1, bool 2, int 3, double 4 (arrays and maps are not read). */
function anyValue(message: Uint8Array): string | number | boolean {
  const field = fields(message)[0];
  if (!field) return "";
  if (field.number === 1) return text(field);
  if (field.number === 2) return field.value === 1n;
  if (field.number === 3) return Number(BigInt.asIntN(64, field.value as bigint));
  if (field.number === 4) return Buffer.from(bytesOf(field)).readDoubleLE(0);
  return "(not read)";
}

/** KeyValue list: key 1, value 2. */
function attributes(list: Field[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const entry of list) {
    const pair = bytesOf(entry);
    const key = first(pair, 1);
    const value = first(pair, 2);
    if (key) out[text(key)] = value ? anyValue(bytesOf(value)) : "";
  }
  return out;
}

/**
 * The spans of an ExportTraceServiceRequest: resource_spans 1 → { resource 1 { attributes 1 }, scope_spans 2 →
 * { scope 1 { name 1 }, spans 2 → { trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, attributes 9 } } }.
 */
export function decodeTraceExport(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of all(body, 1)) {
    const resourceField = first(bytesOf(resourceSpans), 1);
    const resource = resourceField ? attributes(all(bytesOf(resourceField), 1)) : {};
    for (const scopeSpans of all(bytesOf(resourceSpans), 2)) {
      const scopeField = first(bytesOf(scopeSpans), 1);
      const scopeName = scopeField ? first(bytesOf(scopeField), 1) : undefined;
      for (const spanField of all(bytesOf(scopeSpans), 2)) {
        const span = bytesOf(spanField);
        const name = first(span, 5);
        const kind = first(span, 6);
        spans.push({
          traceId: hex(first(span, 1)),
          spanId: hex(first(span, 2)),
          parentSpanId: hex(first(span, 4)),
          name: name ? text(name) : "",
          kind: kind ? Number(kind.value) : 0,
          attributes: attributes(all(span, 9)),
          scope: scopeName ? text(scopeName) : "",
          resource,
        });
      }
    }
  }
  return spans;
}

export interface OtlpStandIn {
  url: string;
  spans: ReceivedSpan[];
  /** Each export's Content-Type, as received. */
  contentTypes: string[];
  close(): Promise<void>;
}

export async function startOtlpStandIn(port = 0): Promise<OtlpStandIn> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      const type = req.headers["content-type"] ?? "";
      contentTypes.push(type);
      if (type !== "application/x-protobuf") return void res.writeHead(415).end();
      try {
        spans.push(...decodeTraceExport(Buffer.concat(chunks)));
      } catch (error) {
        return void res.writeHead(400, { "content-type": "text/plain" }).end((error as Error).message);
      }
      // An empty ExportTraceServiceResponse: everything was accepted.
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1]?.endsWith("otlp-stand-in.ts")) {
  const standIn = await startOtlpStandIn(Number(process.argv[2] ?? 4318));
  console.log(`OTLP/HTTP stand-in on ${standIn.url}/v1/traces`);
  let shown = 0;
  setInterval(() => {
    for (const span of standIn.spans.slice(shown)) console.log(`${span.scope} ${span.name} ${JSON.stringify(span.attributes)}`);
    shown = standIn.spans.length;
  }, 500);
}
