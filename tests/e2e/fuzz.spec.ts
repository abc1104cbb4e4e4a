import { expect, test } from "@playwright/test";
import { declaredRouteModules, fuzzTargets, runFuzz } from "../support/fuzz";
import { rawRequest, requestBytes, serverPid } from "../support/raw-http";
import { plantAdministrator, plantToken } from "./api-support";
import { signedInPerson } from "./people";
import { plantInterviews } from "./support";

// 2,000 malformed requests across every route of app/routes.ts and /viewer (tests/support/fuzz.ts):
// no answer may be a 5xx, none may hang, and the server must still be there. `npm run fuzz` runs a longer one.
const port = Number(process.env.E2E_PORT ?? 3210);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);

test("the fuzz targets cover every route module of app/routes.ts", () => {
  expect(Object.keys(fuzzTargets).filter((key) => key !== "viewer").sort()).toEqual(declaredRouteModules().sort());
});

test("2,000 malformed requests: no 5xx, no hang, the server still answers", async () => {
  test.setTimeout(120_000);
  const pid = serverPid(port);
  const result = await runFuzz(port, 2_000, seed);
  const note = `seed ${seed}: ${JSON.stringify(result.byStatus)}`;
  test.info().annotations.push({ type: "fuzz", description: note });
  console.log(note);
  expect(result.total).toBe(2_000);
  expect(result.failures.map((f) => `${f.label}: ${f.outcome.status ?? f.outcome.outcome} ${f.outcome.body.slice(0, 200)}`), `seed ${seed}`).toEqual([]);
  // Most were answered (a few are cut off by the client on purpose, or closed by the server).
  expect(Object.entries(result.byStatus).filter(([key]) => /^\d+$/.test(key)).reduce((sum, [, n]) => sum + n, 0)).toBeGreaterThan(1_600);
  if (pid) expect(serverPid(port)).toBe(pid);
  expect((await rawRequest(port, requestBytes("GET", "/healthz", [["Host", "localhost"]]))).status).toBe(200);
});

test("600 malformed requests to the help desk, the help pages and the signing pages, as a signed-in helper and as a person: no 5xx, no hang", async ({ browser }) => {
  test.setTimeout(120_000);
  const helper = await signedInPerson(browser, true, "fuzz-helper", { role: "helper" });
  const person = await signedInPerson(browser, true, "fuzz-person");
  try {
    // A live share and a prepared interview, so the fuzz reaches the code behind real ids too.
    const [interviewId] = plantInterviews(person.email, [{ issueId: 2, status: "Completed", daysAgo: 0 }]);
    // And one whose document needs a signature (issue 9's letter has a signature place): its signing page.
    const [toSign] = plantInterviews(person.email, [{ issueId: 9, status: "Completed", daysAgo: 0 }]);
    const form = { headers: { "Content-Type": "application/x-www-form-urlencoded" }, maxRedirects: 0 };
    await person.context.request.post(`/account/interview/${interviewId}/help`, { ...form, data: "intent=share&share=answers&share=documents&message=fuzz" });
    const desk = await helper.context.request.get("/help");
    const shareId = /\/help\/requests\/([0-9a-f-]{36})/.exec(await desk.text())![1]!;
    await helper.context.request.post(`/help/requests/${shareId}`, { ...form, data: "intent=take" });
    const prepared = await helper.context.request.post("/help/prepared/new", { ...form, data: "issueId=2&firstName=F&lastName=Z&email=fuzz-prepared%40example.org" });
    const preparedId = prepared.headers()["location"]!.split("/").at(-1)!;
    const paths = [
      ...Object.entries(fuzzTargets).filter(([module]) => /routes\/(help|invitation|sign|account\.interview\.\$interviewId\.(help|sign))/.test(module)).flatMap(([, targets]) => targets),
      `/help/requests/${shareId}`,
      `/help/requests/${shareId}/answers`,
      `/help/requests/${shareId}/document`,
      `/account/interview/${interviewId}/help`,
      `/account/interview/${toSign}/sign`,
      `/account/interview/${toSign}/signed`,
      `/help/prepared/${preparedId}`,
      `/help/prepared/${preparedId}/cancel`,
    ];
    for (const [who, cookie] of [["helper", helper.cookie], ["person", person.cookie]] as const) {
      const result = await runFuzz(port, 300, seed, 4, { cookie, paths });
      console.log(`help fuzz as a ${who}, seed ${seed}: ${JSON.stringify(result.byStatus)}`);
      expect(result.total).toBe(300);
      expect(result.failures.map((f) => `${f.label}: ${f.outcome.status ?? f.outcome.outcome} ${f.outcome.body.slice(0, 200)}`), `${who}, seed ${seed}`).toEqual([]);
    }
    expect((await rawRequest(port, requestBytes("GET", "/healthz", [["Host", "localhost"]]))).status).toBe(200);
  } finally {
    await Promise.all([helper.context.close(), person.context.close()]);
  }
});

test("300 malformed requests to the webhook administration as an administrator: no 5xx, no hang", async ({ browser }) => {
  test.setTimeout(120_000);
  const administrator = await signedInPerson(browser, true, "fuzz-webhooks", { role: "administrator" });
  try {
    // An endpoint that exists, so the fuzz reaches the code behind a real id too.
    const made = await administrator.context.request.post("/admin/webhooks", { form: { url: "http://127.0.0.1:9/fuzz", events: "share.ended" }, maxRedirects: 0 });
    const endpointId = /\/admin\/webhooks\/([0-9a-f-]{36})/.exec(await made.text())![1]!;
    const paths = [...fuzzTargets["routes/admin.webhooks.tsx"]!, ...fuzzTargets["routes/admin.webhooks.$endpointId.tsx"]!, `/admin/webhooks/${endpointId}`, `/admin/webhooks/${endpointId}?confirm=rotate`];
    const result = await runFuzz(port, 300, seed, 4, { cookie: administrator.cookie, paths });
    console.log(`webhook administration fuzz, seed ${seed}: ${JSON.stringify(result.byStatus)}`);
    expect(result.total).toBe(300);
    expect(result.failures.map((f) => `${f.label}: ${f.outcome.status ?? f.outcome.outcome} ${f.outcome.body.slice(0, 200)}`), `seed ${seed}`).toEqual([]);
    await administrator.context.request.post(`/admin/webhooks/${endpointId}`, { form: { intent: "delete", confirmed: "yes" }, maxRedirects: 0 });
  } finally {
    await administrator.context.close();
  }
});

test("400 malformed requests to the API with a token that may do everything: no 5xx, no hang", async () => {
  test.setTimeout(120_000);
  const admin = plantAdministrator("fuzz-api-admin");
  const token = plantToken(admin.id, "Fuzz", ["issues:read", "prepared:write", "shared:read", "replies:write", "webhooks:manage"]);
  const id = "00000000-0000-4000-8000-000000000000";
  const paths = [
    ...fuzzTargets["routes/api.v1.$.ts"]!,
    "/api/v1/issues/2",
    "/api/v1/guides",
    "/api/v1/guides/re-entry-navigator",
    `/api/v1/prepared-interviews/${id}`,
    "/api/v1/shared-interviews?status=new&limit=1",
    `/api/v1/shared-interviews/${id}/files/${id}`,
    "/api/v1/help-requests",
    `/api/v1/help-requests/${id}/replies`,
    "/api/v1/webhooks",
    `/api/v1/webhooks/${id}/rotate-secret`,
    `/api/v1/webhooks/${id}/deliveries/msg_${"0".repeat(32)}/send-again`,
  ];
  const result = await runFuzz(port, 400, seed, 4, { authorization: `Bearer ${token}`, paths });
  console.log(`API fuzz, seed ${seed}: ${JSON.stringify(result.byStatus)}`);
  expect(result.total).toBe(400);
  expect(result.failures.map((f) => `${f.label}: ${f.outcome.status ?? f.outcome.outcome} ${f.outcome.body.slice(0, 200)}`), `seed ${seed}`).toEqual([]);
  expect((await rawRequest(port, requestBytes("GET", "/healthz", [["Host", "localhost"]]))).status).toBe(200);
});
