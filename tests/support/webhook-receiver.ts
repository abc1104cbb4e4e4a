// A local webhook receiver for the e2e tests: records every request (its webhook-id, headers and body) and answers
// as the test says (by default: 500 to the first attempt of each delivery id, 200 afterwards).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  id: string;
  body: string;
  headers: Record<string, string>;
  /** The parsed body. */
  event: { type: string; timestamp: string; data: { share_id?: string; links?: Record<string, string> } };
  status: number;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The status to answer a request with (0: none, the request is left hanging), given how many times its id was seen before it. */
  answer: (seenBefore: number, webhook: Omit<ReceivedWebhook, "status" | "at">) => number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = "/hooks", host = "127.0.0.1"): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver: WebhookReceiver = {
    url: "",
    received,
    answer: (seenBefore) => (seenBefore === 0 ? 500 : 200),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      const body = Buffer.concat(chunks).toString("utf8");
      let event: ReceivedWebhook["event"] = { type: "", timestamp: "", data: {} };
      try {
        event = JSON.parse(body) as ReceivedWebhook["event"];
      } catch {
        // Recorded as it came.
      }
      const id = headers["webhook-id"] ?? "";
      const webhook = { id, body, headers, event };
      const status = receiver.answer(received.filter((r) => r.id === id).length, webhook);
      received.push({ ...webhook, status, at: Date.now() });
      // 0: no answer at all (the sender is left waiting, as when it dies mid-delivery).
      if (status === 0) return;
      response.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "received" : "try again later");
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receiver.url = `http://${host}:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
