import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog } from "../../db/schema/index.js";
import { setUpTestApp } from "../../test/app.js";
import { recordBackupRun } from "./backup.js";

const ctx = setUpTestApp();
const db = () => ctx.database.db;

async function anEntry() {
  const [row] = await db()
    .insert(activityLog)
    .values({ action: "backup.run", targetType: "backup", changes: { rows: [null, 1] } })
    .returning({ id: activityLog.id });
  if (!row) throw new Error("no entry");
  return row.id;
}

/** The error the database answered, through drizzle's wrapper. */
async function refusal(run: () => Promise<unknown>) {
  const error = await run().then(
    () => null,
    (e: unknown) => e as { cause?: { message?: string } },
  );
  return error?.cause?.message ?? String(error);
}

describe("the activity log is append-only", () => {
  it("refuses to change an entry", async () => {
    const id = await anEntry();
    expect(
      await refusal(() =>
        db().update(activityLog).set({ action: "user.removed" }).where(eq(activityLog.id, id)),
      ),
    ).toContain("append-only: UPDATE refused");
    const [row] = await db().select().from(activityLog).where(eq(activityLog.id, id));
    expect(row?.action).toBe("backup.run");
  });

  it("refuses to delete an entry", async () => {
    const id = await anEntry();
    expect(await refusal(() => db().delete(activityLog).where(eq(activityLog.id, id)))).toContain(
      "append-only: DELETE refused",
    );
    expect(await db().select().from(activityLog).where(eq(activityLog.id, id))).toHaveLength(1);
  });

  it("refuses to empty the table", async () => {
    const id = await anEntry();
    expect(await refusal(() => db().execute(sql`truncate activity_log`))).toContain(
      "append-only: TRUNCATE refused",
    );
    expect(await db().select().from(activityLog).where(eq(activityLog.id, id))).toHaveLength(1);
  });

  it("grants PUBLIC no UPDATE, DELETE or TRUNCATE", async () => {
    const rows = await db().execute<{ privilege: string }>(sql`
      select privilege_type as privilege from information_schema.role_table_grants
      where table_name = 'activity_log' and grantee = 'PUBLIC'`);
    expect(
      rows.rows.map((r) => r.privilege).filter((p) => ["UPDATE", "DELETE", "TRUNCATE"].includes(p)),
    ).toEqual([]);
  });

  it("takes a backup's run from the command line, with no signed-in actor", async () => {
    await recordBackupRun(ctx.database.pool, { file: "/tmp/logged.backup.gz", rows: 12, tables: 3 });
    const [row] = await db()
      .select()
      .from(activityLog)
      .where(eq(activityLog.targetId, "/tmp/logged.backup.gz"));
    expect(row).toMatchObject({ action: "backup.run", actorId: null, changes: { rows: [null, 12] } });
    expect(row?.actorEmail).toContain("(command line)");
  });
});
