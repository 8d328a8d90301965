import { z } from "zod";
import { isoDateTime } from "../../schemas";
import { listAuditEntries } from "../../../audit/log";
import { router, staffProcedure } from "../../trpc";
import { iso, pageInput } from "./inputs";

export const AUDIT_PAGE_SIZE = 50;

const optionalText = z.string().trim().max(200).optional();
const optionalTime = isoDateTime("Must be an ISO 8601 date-time").optional();

/** The distributor's audit log (docs/admin-ui.md, "Audit log"), newest first, filtered. */
export const auditRouter = router({
  list: staffProcedure
    .requires("viewer")
    .input(
      z.object({
        page: pageInput,
        actor: optionalText,
        action: optionalText,
        target: optionalText,
        since: optionalTime,
        until: optionalTime,
      }),
    )
    .query(async ({ ctx, input }) => {
      const { entries, totalCount } = await listAuditEntries(ctx.db, ctx.staff.distributorId, {
        actor: input.actor || undefined,
        action: input.action || undefined,
        target: input.target || undefined,
        since: input.since ? new Date(input.since) : undefined,
        until: input.until ? new Date(input.until) : undefined,
        page: input.page,
        pageSize: AUDIT_PAGE_SIZE,
      });
      return {
        entries: entries.map((entry) => ({ ...entry, createdAt: iso(entry.createdAt) })),
        pagination: { totalCount, page: input.page, pageSize: AUDIT_PAGE_SIZE, hasNextPage: input.page * AUDIT_PAGE_SIZE < totalCount },
      };
    }),
});
