import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; messages?: { role: string; content: string }[]; max_tokens?: number; [key: string]: unknown };
}

export type ChatReply = { status: number; body: string; delayMs?: number };

/** A chat-completions answer in the protocol's shape, with `content` as the first choice's message. */
export function completion(content: string): ChatReply {
  return {
    status: 200,
    body: JSON.stringify({
      id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: "stand-in",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    }),
  };
}

/**
 * What the stand-in answers by default, steered by a word in the person's text: [[slow]] answers after 5 s,
 * [[error]] with a 500, [[refused]] with a 429 (the service's own rate limit), [[malformed]] with a body that
 * is not JSON, [[empty]] with no choices, [[markup]] with HTML; anything else is answered with "A clearer version: " and the text it was sent (placeholders kept).
 */
export function defaultReply(request: ChatRequest): ChatReply {
  const text = request.body.messages?.find((m) => m.role === "user")?.content ?? "";
  if (text.includes("[[slow]]")) return { ...completion("Too late."), delayMs: 5000 };
  if (text.includes("[[error]]")) return { status: 500, body: JSON.stringify({ error: { message: "The server had an error", type: "server_error" } }) };
  if (text.includes("[[refused]]")) return { status: 429, body: JSON.stringify({ error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } }) };
  if (text.includes("[[malformed]]")) return { status: 200, body: "{ this is not json" };
  if (text.includes("[[empty]]")) return { status: 200, body: JSON.stringify({ choices: [] }) };
  if (text.includes("[[markup]]")) return completion('<b>Bold</b> <img src=x onerror="alert(1)"><script>alert(2)</script> & done');
  if (text.includes("Source passages:")) return groundedReply(request, text);
  if (text.includes("\n\nThe document:\n")) return documentReply(request, text);
  return completion(`A clearer version: ${text}`);
}

/**
 * The words the stand-in compares: runs of four or more Latin letters (accents included: "réparations"), and in
 * Chinese, which has no spaces, each pair of characters ("薪金发放" gives 薪金, 金发, 发放).
 */
const words = (text: string) => {
  const lower = text.toLowerCase();
  const pairs = (lower.match(/\p{Script=Han}+/gu) ?? []).flatMap((run) => [...run].slice(1).map((char, i) => [...run][i]! + char));
  return new Set([...(lower.match(/[\p{Script=Latin}\p{M}]{4,}/gu) ?? []), ...pairs]);
};

/**
 * "Understand my situation": the stand-in answers in the JSON asked for, from the passages it was sent: the first
 * sentence of each of the two passages sharing most words with the question, each citing its passage (nothing when
 * no passage shares a word: the sources do not answer). Steered by
 * [[uncited]] (statements without sources), [[wrong-citation]] (a passage number that was not given),
 * [[not-json]] (prose), [[hard]] (a first answer in long words; simple words when asked again), [[nothing]]
 * (empty lists: the sources do not answer).
 */
function groundedReply(request: ChatRequest, text: string): ChatReply {
  const question = /The person's question:\n([\s\S]*?)\n\nSource passages:/.exec(text)?.[1] ?? "";
  const passages = [...text.matchAll(/^\[(\d+)\] [^\n]*\n([^\n]*)/gm)].map((match) => ({ number: Number(match[1]), text: match[2] ?? "" }));
  const asked = words(question);
  const ranked = passages
    .map((passage) => ({ ...passage, shared: [...words(passage.text)].filter((word) => asked.has(word)).length }))
    .filter((passage) => passage.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.number - b.number)
    .slice(0, 2);
  const firstSentence = (passage: string) => /^.*?(?:[.!?](?=\s|$)|[。！？])/u.exec(passage)?.[0] ?? passage;
  const simplified = (request.body.messages?.length ?? 0) > 2;
  const statement = (passage: { number: number; text: string }) => ({
    text: question.includes("[[hard]]") && !simplified
      ? "Notwithstanding contemporaneous jurisprudential considerations, administrative determinations necessitate comprehensive documentation substantiating entitlements."
      : firstSentence(passage.text),
    sources: question.includes("[[uncited]]") ? [] : question.includes("[[wrong-citation]]") ? [99] : [passage.number],
  });
  if (question.includes("[[not-json]]")) return completion("Here is what I think: you should talk to a lawyer.");
  if (question.includes("[[nothing]]")) return completion(JSON.stringify({ situation: [], options: [] }));
  const [first, second] = ranked;
  return completion(
    "```json\n" +
      JSON.stringify({ situation: first ? [statement(first)] : [], options: second ? [statement(second)] : [] }) +
      "\n```",
  );
}

/**
 * A local stand-in for an OpenAI-compatible chat-completions endpoint (POST {base}/chat/completions). It records
 * every request. `GET /requests` lists them as JSON, for tests that run it in another process.
 */
export async function startAiStandIn(
  options: { port?: number; reply?: (request: ChatRequest) => ChatReply } = {},
): Promise<{ url: string; requests: ChatRequest[]; close(): Promise<void> }> {
  const reply = options.reply ?? defaultReply;
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      if (req.method === "GET" && req.url === "/requests") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(requests));
        return;
      }
      if (req.method === "GET" && req.url === "/healthz") {
        res.writeHead(200).end("ok");
        return;
      }
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Not found" } }));
        return;
      }
      let body: ChatRequest["body"] = {};
      try {
        body = JSON.parse(raw) as ChatRequest["body"];
      } catch {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Invalid JSON" } }));
        return;
      }
      const request = { path: req.url, headers: req.headers, body };
      requests.push(request);
      const answer = reply(request);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(answer.body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run as a program (the e2e suite's web server): `tsx tests/support/ai-stand-in.ts 3211`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 3211);
  const { url } = await startAiStandIn({ port });
  console.log(`AI stand-in listening on ${url}`);
}

/**
 * "Use a document I have": for each question the system message lists (`- "id": label (form)`), a line of the
 * document written "Label: value" whose label shares most words with the question answers it, quoted whole; numbers
 * lose their currency signs, dates written D Month YYYY become YYYY-MM-DD. Steered by words in the document:
 * [[made-up-quote]] (quotes that are not in it), [[not-json]] (prose).
 */
function documentReply(request: ChatRequest, text: string): ChatReply {
  const system = request.body.messages?.find((m) => m.role === "system")?.content ?? "";
  const documentText = text.split("\n\nThe document:\n")[1] ?? "";
  if (documentText.includes("[[not-json]]")) return completion("The letter says the landlord keeps the bond.");
  const questions = [...system.matchAll(/^- "([^"]+)": (.*) \(([^()]*(?:\([^()]*\)[^()]*)*)\)$/gm)].map((m) => ({ id: m[1]!, label: m[2]!, form: m[3]! }));
  const lines = documentText.split("\n").map((line) => line.trim()).filter((line) => /^[^:]{2,60}:\s*\S/.test(line));
  const months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
  const answers = questions.flatMap((question) => {
    const asked = words(question.label);
    const shared = (candidate: string) => [...words(candidate.split(":")[0]!)].filter((word) => asked.has(word)).length;
    const line = lines.filter((candidate) => shared(candidate) > 0).sort((a, b) => shared(b) - shared(a))[0];
    if (!line) return [];
    let value = line.slice(line.indexOf(":") + 1).trim();
    if (question.form.startsWith("a number")) value = value.replace(/[^0-9.]/g, "");
    const date = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(value);
    if (question.form.includes("YYYY-MM-DD") && date) {
      value = `${date[3]}-${String(months.indexOf(date[2]!.toLowerCase()) + 1).padStart(2, "0")}-${date[1]!.padStart(2, "0")}`;
    }
    const quote = documentText.includes("[[made-up-quote]]") ? `${line} (as the stand-in remembers it)` : line;
    return [{ field: question.id, value, quote }];
  });
  return completion(JSON.stringify({ answers }));
}
