import { createHash, createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

/**
 * A local stand-in for an S3-compatible object store, speaking the part of S3's REST protocol that the AWS SDK
 * uses for uploaded files (app/storage/s3-storage.server.ts): PutObject, GetObject, HeadObject, DeleteObject
 * and ListObjectsV2, path-style (`/bucket/key`). Every request must be signed with AWS Signature Version 4 by
 * the expected key pair: the signature is computed again here, as S3 does, so a wrong secret is refused.
 * Objects live in memory. Run alone: `npx tsx tests/support/s3-stand-in.ts <port> <bucket>` (key pair below).
 */

export const S3_ACCESS_KEY_ID = "AKIASTANDIN000000001";
export const S3_SECRET_ACCESS_KEY = "stand-in-secret-access-key-0000000000000";

export interface StoredObject {
  bytes: Buffer;
  modified: Date;
  etag: string;
}

export interface S3StandIn {
  /** The endpoint, e.g. http://127.0.0.1:9000. */
  url: string;
  /** Objects by bucket, then key. */
  buckets: Map<string, Map<string, StoredObject>>;
  /** Every request: method, path and query as sent, and the access key it was signed with. */
  requests: { method: string; url: string; accessKeyId: string | null }[];
  /** While true, every request is answered 503 SlowDown, as a bucket that is down or overloaded answers. */
  unavailable: boolean;
  close(): Promise<void>;
}

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
// S3's URI encoding (RFC 3986 unreserved characters stay as they are).
const uriEncode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

function sendError(res: ServerResponse, status: number, code: string, message: string, method: string) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error>`;
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(method === "HEAD" ? undefined : body);
}

/** Why the request's AWS4-HMAC-SHA256 signature is not the one the key pair makes, or null when it is. */
function signatureProblem(req: IncomingMessage, body: Buffer, secret: string, accessKeyId: string): { code: string; message: string } | null {
  const authorization = req.headers.authorization ?? "";
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!match) return { code: "AccessDenied", message: "The request is not signed with AWS4-HMAC-SHA256." };
  const [, keyId, date, region, signedHeaders, signature] = match as unknown as string[];
  if (keyId !== accessKeyId) return { code: "InvalidAccessKeyId", message: `The access key ${keyId} does not exist.` };
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (!amzDate.startsWith(date!)) return { code: "AccessDenied", message: "x-amz-date does not match the credential's date." };
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) {
    return { code: "XAmzContentSHA256Mismatch", message: "The body's SHA-256 is not x-amz-content-sha256." };
  }
  const [pathPart, queryPart = ""] = (req.url ?? "/").split("?", 2) as [string, string?];
  const query = queryPart
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const [name, value = ""] = pair.split("=", 2) as [string, string?];
      return [uriEncode(decodeURIComponent(name)), uriEncode(decodeURIComponent(value.replace(/\+/g, " ")))] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const headers = signedHeaders!.split(";");
  const canonicalHeaders = headers
    .map((name) => `${name}:${String(req.headers[name] ?? "").trim().replace(/\s+/g, " ")}\n`)
    .join("");
  const canonicalRequest = [req.method, pathPart, query, canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region!), "s3"), "aws4_request");
  const expected = createHmac("sha256", signingKey).update(stringToSign).digest("hex");
  return expected === signature ? null : { code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match the signature you provided." };
}

function listObjects(res: ServerResponse, bucketName: string, objects: Map<string, StoredObject>, query: URLSearchParams, pageSize: number) {
  const prefix = query.get("prefix") ?? "";
  const maxKeys = Math.min(Number(query.get("max-keys") ?? 1000) || 1000, pageSize);
  const after = query.get("continuation-token") ? Buffer.from(query.get("continuation-token")!, "base64url").toString() : (query.get("start-after") ?? "");
  const encode = query.get("encoding-type") === "url" ? (key: string) => uriEncode(key).replace(/%2F/g, "/") : (key: string) => key;
  const keys = [...objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort();
  const page = keys.slice(0, maxKeys);
  const truncated = keys.length > page.length;
  const contents = page
    .map((key) => {
      const object = objects.get(key)!;
      return `<Contents><Key>${xmlEscape(encode(key))}</Key><LastModified>${object.modified.toISOString()}</LastModified><ETag>&quot;${object.etag}&quot;</ETag><Size>${object.bytes.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
    })
    .join("");
  const next = truncated ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString("base64url")}</NextContinuationToken>` : "";
  res.writeHead(200, { "content-type": "application/xml" });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${xmlEscape(bucketName)}</Name><Prefix>${xmlEscape(encode(prefix))}</Prefix>` +
      `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`,
  );
}

export async function startS3StandIn({
  port = 0,
  bucketNames = ["test-bucket"],
  accessKeyId = S3_ACCESS_KEY_ID,
  secretAccessKey = S3_SECRET_ACCESS_KEY,
  pageSize = 1000,
}: { port?: number; bucketNames?: string[]; accessKeyId?: string; secretAccessKey?: string; pageSize?: number } = {}): Promise<S3StandIn> {
  const buckets = new Map(bucketNames.map((name) => [name, new Map<string, StoredObject>()]));
  const requests: S3StandIn["requests"] = [];
  const state = { unavailable: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? "GET";
      const url = new URL(req.url ?? "/", "http://stand-in");
      requests.push({ method, url: req.url ?? "", accessKeyId: /Credential=([^/]+)\//.exec(req.headers.authorization ?? "")?.[1] ?? null });
      const problem = signatureProblem(req, body, secretAccessKey, accessKeyId);
      if (problem) return sendError(res, 403, problem.code, problem.message, method);
      if (state.unavailable) return sendError(res, 503, "SlowDown", "Please reduce your request rate.", method);
      if (req.headers["content-encoding"]?.includes("aws-chunked")) {
        return sendError(res, 501, "NotImplemented", "aws-chunked uploads are not supported by this stand-in.", method);
      }
      const [, bucketName = "", ...keyParts] = url.pathname.split("/");
      const key = decodeURIComponent(keyParts.join("/"));
      const objects = buckets.get(decodeURIComponent(bucketName));
      if (!objects) return sendError(res, 404, "NoSuchBucket", "The specified bucket does not exist.", method);

      if (!key) {
        if (method === "GET" && url.searchParams.get("list-type") === "2") return listObjects(res, bucketName, objects, url.searchParams, pageSize);
        return sendError(res, 501, "NotImplemented", `${method} on a bucket is not supported by this stand-in.`, method);
      }
      if (method === "PUT") {
        const etag = createHash("md5").update(body).digest("hex");
        objects.set(key, { bytes: body, modified: new Date(), etag });
        res.writeHead(200, { etag: `"${etag}"` });
        return res.end();
      }
      if (method === "DELETE") {
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      if (method === "GET" || method === "HEAD") {
        const object = objects.get(key);
        if (!object) return sendError(res, 404, "NoSuchKey", "The specified key does not exist.", method);
        res.writeHead(200, {
          "content-type": "application/octet-stream",
          "content-length": object.bytes.length,
          etag: `"${object.etag}"`,
          "last-modified": object.modified.toUTCString(),
        });
        return res.end(method === "HEAD" ? undefined : object.bytes);
      }
      sendError(res, 405, "MethodNotAllowed", `${method} is not allowed.`, method);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    buckets,
    requests,
    get unavailable() {
      return state.unavailable;
    },
    set unavailable(value: boolean) {
      state.unavailable = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run as a program: a stand-in on a fixed port, for a server started by hand or by Playwright.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const standIn = await startS3StandIn({ port: Number(process.argv[2] ?? 9000), bucketNames: [process.argv[3] ?? "test-bucket"] });
  console.log(`S3 stand-in on ${standIn.url}`);
}
