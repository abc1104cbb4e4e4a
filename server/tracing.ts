// OpenTelemetry traces (docs/decisions/0035-logs-metrics-traces.md), loaded by server.js before the server's
// modules only when OTEL_EXPORTER_OTLP_ENDPOINT is set: otherwise none of this is even imported. Spans of the
// HTTP server, of Express's middleware and of PostgreSQL's statements (the SDK's own instrumentations; SQLite's
// driver, better-sqlite3, has none), sent in batches over OTLP/HTTP (protobuf) to
// $OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces. The SDK's other settings are read from the environment as it defines
// them: OTEL_SERVICE_NAME (default legal-self-help), OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_TRACES_SAMPLER(_ARG).
import { register } from "node:module";
import { context, trace } from "@opentelemetry/api";
import { getRPCMetadata, RPCType } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { ExpressInstrumentation } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { bridgeTracing } from "~/observability/log.server";

// The server's bundle imports express and pg as ES modules: their instrumentations see them through this hook.
register("@opentelemetry/instrumentation/hook.mjs", import.meta.url, { data: { include: ["express", "pg", "pg-pool"] } });

const provider = new NodeTracerProvider({
  resource: defaultResource()
    .merge(resourceFromAttributes({ "service.name": "legal-self-help" }))
    .merge(detectResources({ detectors: [envDetector] })),
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
});
provider.register();

registerInstrumentations({
  tracerProvider: provider,
  instrumentations: [
    new HttpInstrumentation({
      // What the logs never hold, the spans do not either: the query string (a link's token), the client's
      // address and its user agent. A request's log lines carry its span's trace id.
      startIncomingSpanHook: () => ({
        "url.query": undefined,
        "client.address": undefined,
        "network.peer.address": undefined,
        "network.peer.port": undefined,
        "user_agent.original": undefined,
      }),
    }),
    new ExpressInstrumentation(),
    // Statements with their placeholders ($1), never their values (enhancedDatabaseReporting stays off).
    new PgInstrumentation(),
  ],
});

bridgeTracing({
  // The router's pattern names the request's span (GET /issues/:issueId), as Express's own routes do.
  routeNamed(route) {
    const metadata = getRPCMetadata(context.active());
    if (metadata?.type === RPCType.HTTP) metadata.route = route;
  },
  traceFields() {
    const span = trace.getActiveSpan()?.spanContext();
    return span ? { traceId: span.traceId, spanId: span.spanId } : undefined;
  },
});

/** Sends the spans still waiting in the batch (server.js, before the process exits). */
export function shutdownTracing(): Promise<void> {
  return provider.shutdown();
}
