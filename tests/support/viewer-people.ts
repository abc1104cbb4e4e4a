// People with a signed-in session each and interviews of a two-page guide (bench/fixtures/step-guide, issue
// 901), made with the application's own modules on the database that DATABASE_URL names (migrated and seeded
// here): for the viewer's step benchmark (bench/viewer-step.ts) and the crash test (tests/e2e/crash.spec.ts).
// The modules keep one configuration per process, so a test runs this file in a child process:
//   PEOPLE=50 INTERVIEWS=3 DATABASE_URL=… SESSION_SECRET=… tsx tests/support/viewer-people.ts   (prints JSON)

export const STEP_ISSUE_ID = 901;

export interface StepPerson {
  /** The Cookie header of the person's session. */
  cookie: string;
  interviewIds: string[];
}

/** The two pages of the step guide as a person fills them in: A, then B, then A again… */
export function stepForm(page: "A" | "B", seed: string | number): string {
  return page === "A"
    ? new URLSearchParams({ _page: "A", _button: "0", "name te": "Ana Lim", "amount nu": String(seed) }).toString()
    : new URLSearchParams({ _page: "B", _button: "0", "story te": `Save ${seed}`, "agree tf": "true" }).toString();
}

export async function preparePeople({ people, interviewsPerPerson }: { people: number; interviewsPerPerson: number }): Promise<StepPerson[]> {
  const { databaseHandle, closeDatabase, database } = await import("../../app/db.server");
  const { prepareDatabase } = await import("../../server/database-setup");
  const { importGuide, readGuideFolder } = await import("../../app/guides/import.server");
  const { getGuide } = await import("../../app/guides/guides.server");
  const { saveInterview } = await import("../../app/interviews/interviews.server");
  const { startSession } = await import("../../app/auth/session.server");
  const { startInterview } = await import("../../app/a2j");
  const { storedFiles } = await import("../../app/storage/configured-storage.server");
  const { configuredKeyring } = await import("../../app/security/data-encryption.server");
  await prepareDatabase(databaseHandle(), "db/seed", { keys: configuredKeyring(), storage: storedFiles() }, () => undefined);
  await importGuide("step-bench", await readGuideFolder("bench/fixtures/step-guide"));
  const db = database();
  await db.insertInto("issues").values({ id: STEP_ISSUE_ID, category_id: 1, name: "Step benchmark", content: "", guide_id: "step-bench", guide_path: "step-bench/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" }).execute();
  const guide = (await getGuide("step-bench"))!;
  const started = startInterview(guide, 20000);
  if (!started.ok) throw new Error("the step guide does not start");
  const made: StepPerson[] = [];
  for (let i = 0; i < people; i++) {
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    await db.insertInto("users").values({ id, first_name: "Step", last_name: `${i}`, email: `step${i}@example.org`, email_key: `step${i}@example.org`, phone_country: "SG", phone_code: "+65", phone_number: "1", password_hash: null, email_verified_at: now, totp_secret: null, two_factor_enabled: 1, totp_last_step: null, created_at: now, updated_at: now }).execute();
    const interviewIds: string[] = [];
    for (let n = 0; n < interviewsPerPerson; n++) {
      interviewIds.push(await saveInterview({ id: null, userId: id, issueId: STEP_ISSUE_ID, status: "Draft", state: started.state }));
    }
    made.push({ cookie: (await startSession({ userId: id }, null)).split(";")[0]!, interviewIds });
  }
  await closeDatabase();
  return made;
}

if (process.argv[1]?.endsWith("viewer-people.ts")) {
  const people = await preparePeople({ people: Number(process.env.PEOPLE ?? 50), interviewsPerPerson: Number(process.env.INTERVIEWS ?? 1) });
  process.stdout.write(JSON.stringify(people));
}
