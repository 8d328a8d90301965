import { roleAllows, roleRefusalMessage, type StaffRole } from "../../../auth/staff-roles";
import { BREACH_UPLOAD_LIMITS } from "../../../breaches/exposure-index/uploads";
import type { Db } from "../../../db/client";
import { router, staffProcedure } from "../../trpc";

export const NOT_A_BREACH_IMPORTER =
  "Breach data is shared by every distributor of this service: only owners of a distributor the operator allows to import it may upload (admin set-breach-importer)";

export interface BreachDataAccess {
  /** Whether this staff member may upload breach data now; otherwise why not. */
  mayImport: boolean;
  refusal?: string;
  uploadLimits: typeof BREACH_UPLOAD_LIMITS;
  /** The stealer-log breaches of the catalogue, for the stealer-log upload's choice. */
  stealerLogBreaches: string[];
}

/**
 * Who may upload breach data (docs/admin-ui.md, "Breach data"): the catalogue and the exposure
 * index are the whole service's, not one distributor's, so an upload changes what every
 * distributor's customers are told. It takes the owner role and a distributor the operator has
 * allowed (`imports_breach_data`, set by the admin CLI; the demo distributor has it).
 */
export async function breachDataAccess(db: Db, staff: { distributorId: string; role: StaffRole }): Promise<BreachDataAccess> {
  const [distributor, stealerLogs] = await Promise.all([
    db.distributor.findUnique({ where: { id: staff.distributorId }, select: { importsBreachData: true } }),
    db.breach.findMany({ where: { isStealerLog: true }, select: { name: true }, orderBy: { name: "asc" }, take: 500 }),
  ]);
  const refusal = !roleAllows("owner", staff.role)
    ? roleRefusalMessage("owner", staff.role)
    : distributor?.importsBreachData
      ? undefined
      : NOT_A_BREACH_IMPORTER;
  return {
    mayImport: refusal === undefined,
    ...(refusal ? { refusal } : {}),
    uploadLimits: BREACH_UPLOAD_LIMITS,
    stealerLogBreaches: stealerLogs.map((breach) => breach.name),
  };
}

export const breachDataRouter = router({
  /** Any role may see the page; the answer says whether this staff member may upload. */
  access: staffProcedure.requires("viewer").query(async ({ ctx }) => ({
    ...(await breachDataAccess(ctx.db, { distributorId: ctx.staff.distributorId, role: ctx.staff.role as StaffRole })),
    staff: { id: ctx.staff.id, email: ctx.staff.email, distributorId: ctx.staff.distributorId },
  })),
});
