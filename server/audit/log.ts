import { Prisma, type Queryable } from "../db/client";
import { log } from "../log";
import { redactSecrets } from "./redact";

/**
 * The audit log (docs/admin-ui.md, "Audit log"): one row per change made through the admin UI,
 * the partner and distributor APIs or the admin CLI. The procedure builders write it for every
 * mutation (server/api/audit.ts); the CLI for every command that changes something.
 */
export type AuditActor =
  | { kind: "staff"; staffId: string; email: string }
  | { kind: "api-key"; keyId: string; prefix: string; owner: { partnerId: string } | { distributorId: string } }
  | { kind: "cli" };

export interface AuditEvent {
  /** Whose log the row is in; null when the change belongs to no one distributor (a CLI import). */
  distributorId: string | null;
  actor: AuditActor;
  clientAddress?: string | null;
  /** What was done, e.g. `partner.update`, `staff.role-change`. */
  action: string;
  target?: { type: string; id?: string | null };
  before?: unknown;
  after?: unknown;
}

export interface AuditRow {
  id: string;
  createdAt: Date;
  actorKind: string;
  actorId: string | null;
  actorLabel: string;
  actorOwner: string | null;
  clientAddress: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

function actorColumns(actor: AuditActor): { id: string | null; label: string; owner: string | null } {
  if (actor.kind === "staff") return { id: actor.staffId, label: actor.email, owner: null };
  if (actor.kind === "api-key") {
    const owner = "partnerId" in actor.owner ? `partner ${actor.owner.partnerId}` : `distributor ${actor.owner.distributorId}`;
    return { id: actor.keyId, label: actor.prefix, owner };
  }
  return { id: null, label: "cli", owner: null };
}

function jsonOrNull(value: unknown): string | null {
  if (value === undefined) return null;
  return JSON.stringify(redactSecrets(value));
}

/** Appends one row; before and after are stored with their secrets removed. */
export async function recordAudit(db: Queryable, event: AuditEvent): Promise<void> {
  const actor = actorColumns(event.actor);
  await db.$executeRaw`
    INSERT INTO audit_entries
      (distributor_id, actor_kind, actor_id, actor_label, actor_owner, client_address, action, target_type, target_id, before, after)
    VALUES (${event.distributorId}::uuid, ${event.actor.kind}, ${actor.id}, ${actor.label}, ${actor.owner},
      ${event.clientAddress ?? null}, ${event.action}, ${event.target?.type ?? null}, ${event.target?.id ?? null},
      ${jsonOrNull(event.before)}::jsonb, ${jsonOrNull(event.after)}::jsonb)`;
}

/**
 * recordAudit after a change has committed: a failure to write is logged as an error and does
 * not undo or fail the change the caller already made.
 */
export async function recordAuditAfter(db: Queryable, event: AuditEvent): Promise<void> {
  try {
    await recordAudit(db, event);
  } catch (error) {
    log.error("audit entry not written", { action: event.action, error });
  }
}

export interface AuditFilters {
  /** Part of the actor's e-mail, key prefix or `cli`. */
  actor?: string;
  /** An action, or the start of one (`partner.` for every partner change). */
  action?: string;
  /** A target's id, or its type. */
  target?: string;
  since?: Date;
  until?: Date;
}

function filterSql(distributorId: string, filters: AuditFilters): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`distributor_id = ${distributorId}::uuid`];
  if (filters.actor) conditions.push(Prisma.sql`strpos(lower(actor_label), lower(${filters.actor})) > 0`);
  if (filters.action) conditions.push(Prisma.sql`(action = ${filters.action} OR starts_with(action, ${filters.action}))`);
  if (filters.target) conditions.push(Prisma.sql`(target_id = ${filters.target} OR target_type = ${filters.target})`);
  if (filters.since) conditions.push(Prisma.sql`created_at >= ${filters.since}`);
  if (filters.until) conditions.push(Prisma.sql`created_at < ${filters.until}`);
  return Prisma.join(conditions, " AND ");
}

const COLUMNS = Prisma.sql`id::text AS id, created_at AS "createdAt", actor_kind AS "actorKind", actor_id AS "actorId",
  actor_label AS "actorLabel", actor_owner AS "actorOwner", client_address AS "clientAddress", action,
  target_type AS "targetType", target_id AS "targetId", before, after`;

/** A page of the distributor's audit log, newest first. */
export async function listAuditEntries(
  db: Queryable,
  distributorId: string,
  filters: AuditFilters & { page: number; pageSize: number },
): Promise<{ entries: AuditRow[]; totalCount: number }> {
  const where = filterSql(distributorId, filters);
  const [entries, [count]] = await Promise.all([
    db.$queryRaw<AuditRow[]>`SELECT ${COLUMNS} FROM audit_entries WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT ${filters.pageSize} OFFSET ${(filters.page - 1) * filters.pageSize}`,
    db.$queryRaw<Array<{ count: number }>>`SELECT count(*)::int AS count FROM audit_entries WHERE ${where}`,
  ]);
  return { entries, totalCount: count?.count ?? 0 };
}

/** At most this many rows in one export; a longer window is exported in parts. */
export const AUDIT_EXPORT_LIMIT = 100_000;

/** The distributor's rows in [since, until), oldest first (the export). */
export async function exportAuditEntries(
  db: Queryable,
  distributorId: string,
  window: { since?: Date; until?: Date },
): Promise<AuditRow[]> {
  return db.$queryRaw<AuditRow[]>`SELECT ${COLUMNS} FROM audit_entries WHERE ${filterSql(distributorId, window)}
    ORDER BY created_at, id LIMIT ${AUDIT_EXPORT_LIMIT}`;
}

export const AUDIT_CSV_COLUMNS = [
  "time",
  "actor_kind",
  "actor_id",
  "actor",
  "actor_owner",
  "client_address",
  "action",
  "target_type",
  "target_id",
  "before",
  "after",
] as const;

function csvField(value: string | null): string {
  if (value === null) return "";
  // A leading =, +, - or @ would be a formula to a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The export as CSV (RFC 4180, a header line, before/after as JSON text). */
export function auditCsv(rows: AuditRow[]): string {
  const lines = [AUDIT_CSV_COLUMNS.join(",")];
  for (const row of rows) {
    lines.push(
      [
        row.createdAt.toISOString(),
        row.actorKind,
        row.actorId,
        row.actorLabel,
        row.actorOwner,
        row.clientAddress,
        row.action,
        row.targetType,
        row.targetId,
        row.before === null ? null : JSON.stringify(row.before),
        row.after === null ? null : JSON.stringify(row.after),
      ]
        .map(csvField)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
