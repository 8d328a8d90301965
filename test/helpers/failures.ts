import type { Db } from "../../server/db/client";

/**
 * Makes every INSERT into `table` fail inside the database (a trigger that raises), to prove
 * that a transaction leaves nothing behind when its last step fails. Returns the undo.
 */
export async function failInsertsInto(
  db: Db,
  table: "jobs" | "outbox_events" | "portal_users" | "magic_link_tokens",
): Promise<() => Promise<void>> {
  const name = `test_fail_${table}`;
  await db.$executeRawUnsafe(
    `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
  );
  await db.$executeRawUnsafe(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  return async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER ${name} ON ${table}`);
    await db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
  };
}
