import type { Db, Queryable } from "../db/client";

/**
 * audit_entries is append-only for the application: a trigger refuses every UPDATE, DELETE and
 * TRUNCATE, except the retention prune's deletes of rows older than the cut-off it states for its
 * own transaction (`audit.prune_before`). Installed on every start (server/startup/database.ts),
 * since migrations are the schema engine's and carry no triggers; PostgreSQL and PGlite alike.
 */
export async function installAuditAppendOnly(db: Queryable): Promise<void> {
  await db.$executeRawUnsafe(`
    CREATE OR REPLACE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE cutoff text := current_setting('audit.prune_before', true);
    BEGIN
      IF TG_OP = 'DELETE' AND coalesce(cutoff, '') <> '' THEN
        IF OLD.created_at < cutoff::timestamptz THEN
          RETURN OLD;
        END IF;
      END IF;
      RAISE EXCEPTION 'audit_entries is append-only (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
    END $$`);
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS audit_entries_append_only ON audit_entries`);
  await db.$executeRawUnsafe(
    `CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`,
  );
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS audit_entries_no_truncate ON audit_entries`);
  await db.$executeRawUnsafe(
    `CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`,
  );
}

/** Deletes the rows older than `retentionDays` (housekeeping); returns how many. */
export async function pruneAuditEntries(db: Db, retentionDays: number): Promise<number> {
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Array<{ cutoff: string }>>`
      SELECT set_config('audit.prune_before', (now() - make_interval(days => ${retentionDays}))::text, true) AS cutoff`;
    return tx.$executeRaw`DELETE FROM audit_entries WHERE created_at < ${row!.cutoff}::timestamptz`;
  });
}
