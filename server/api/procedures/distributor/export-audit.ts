import { z } from "zod";
import { AUDIT_EXPORT_LIMIT, auditCsv, exportAuditEntries } from "../../../audit/log";
import { isoDateTime, successTrue } from "../../schemas";
import { distributorProcedure } from "../../trpc";

export const AUDIT_SINCE_INVALID = "since must be an ISO 8601 date-time";
export const AUDIT_UNTIL_INVALID = "until must be an ISO 8601 date-time";
export const AUDIT_FORMAT_INVALID = "format must be csv or json";
export const AUDIT_WINDOW_INVALID = "until must be later than since";

const bound = (message: string) => isoDateTime(message).optional().meta({ description: "ISO 8601 date-time with Z or an offset" });

const auditEntrySchema = z.object({
  id: z.string().meta({ format: "uuid" }),
  time: z.string().meta({ format: "date-time" }),
  actor_kind: z.enum(["staff", "api-key", "cli"]),
  actor_id: z.string().nullable().meta({ description: "The staff member's or the API key's id" }),
  actor: z.string().meta({ description: "The staff member's e-mail, the API key's prefix, or cli" }),
  actor_owner: z.string().nullable().meta({ description: "The API key's owner: partner <uuid> or distributor <uuid>" }),
  client_address: z.string().nullable(),
  action: z.string().meta({ example: "partner.update" }),
  target_type: z.string().nullable().meta({ example: "partner" }),
  target_id: z.string().nullable(),
  before: z.unknown().meta({ description: "The values before the change, secrets removed (null when not recorded)" }),
  after: z.unknown().meta({ description: "The values after the change, secrets removed" }),
});

export const exportAudit = distributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/distributors/audit",
      tags: ["Distributor: audit log"],
      summary: "Export the audit log",
      description:
        `The distributor's own audit log in [since, until), oldest first, at most ${AUDIT_EXPORT_LIMIT.toLocaleString("en-GB")} rows: ` +
        "as JSON (the default) or, with format=csv, as text/csv with a header line (before and after as JSON text).",
    },
    errors: { failure: "Internal server error", validation: "message" },
    responses: { 400: [AUDIT_SINCE_INVALID, AUDIT_UNTIL_INVALID, AUDIT_FORMAT_INVALID, AUDIT_WINDOW_INVALID] },
  })
  .input(
    z
      .object({
        since: bound(AUDIT_SINCE_INVALID),
        until: bound(AUDIT_UNTIL_INVALID),
        format: z.enum(["csv", "json"], { error: AUDIT_FORMAT_INVALID }).default("json").meta({ description: "csv or json (default)" }),
      })
      .refine((input) => !input.since || !input.until || new Date(input.since) < new Date(input.until), { error: AUDIT_WINDOW_INVALID }),
  )
  .output(z.object({ success: successTrue, data: z.array(auditEntrySchema) }))
  .query(async ({ ctx, input }) => {
    const rows = await exportAuditEntries(ctx.db, ctx.caller.distributorId, {
      since: input.since ? new Date(input.since) : undefined,
      until: input.until ? new Date(input.until) : undefined,
    });
    if (input.format === "csv") {
      ctx.response.headers["content-type"] = "text/csv; charset=utf-8";
      ctx.response.headers["content-disposition"] = 'attachment; filename="audit.csv"';
      ctx.response.body = auditCsv(rows);
    }
    return {
      success: true as const,
      data: rows.map((row) => ({
        id: row.id,
        time: row.createdAt.toISOString(),
        actor_kind: row.actorKind as "staff" | "api-key" | "cli",
        actor_id: row.actorId,
        actor: row.actorLabel,
        actor_owner: row.actorOwner,
        client_address: row.clientAddress,
        action: row.action,
        target_type: row.targetType,
        target_id: row.targetId,
        before: row.before,
        after: row.after,
      })),
    };
  });
