import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppMeta } from "../../server/api/meta";
import { uiRouter } from "../../server/api/ui/root";
import type { UiSession } from "../../server/api/ui/session";
import {
  MFA_ENROLMENT_REQUIRED,
  roleAllows,
  roleRefusalMessage,
  STAFF_ROLES,
  type StaffRole,
  type StaffRule,
} from "../../server/auth/staff-roles";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { clientError, createStaffSession, startUiServer, uiCallerAs } from "../helpers/ui";

/**
 * The role matrix (docs/admin-ui.md, "Roles"), generated from the router: every admin procedure
 * states its rule (a new one without a rule, or one missing from this table, fails here), and
 * each rule is enforced for each role: the roles without it are refused with 403 naming the role
 * needed, before the input is read; the roles with it get past the check.
 */
const EXPECTED: Record<string, StaffRule> = {
  "admin.me": "viewer",
  "admin.overview.analytics": "viewer",
  "admin.overview.billing": "viewer",
  "admin.partners.list": "viewer",
  "admin.partners.get": "viewer",
  "admin.partners.create": "admin",
  "admin.partners.update": "admin",
  "admin.partners.apiKeys": "viewer",
  "admin.partners.issueApiKey": "admin",
  "admin.partners.revokeApiKey": "admin",
  "admin.partners.customers": "viewer",
  "admin.customers.search": "viewer",
  "admin.channels.list": "viewer",
  "admin.psa.get": "viewer",
  "admin.psa.save": "admin",
  "admin.psa.test": "admin",
  "admin.psa.remove": "admin",
  "admin.psa.mapCustomer": "admin",
  "admin.breachData.access": "viewer",
  "admin.channels.create": "admin",
  "admin.channels.sendTest": "admin",
  "admin.channels.delete": "admin",
  "admin.brand.distributor": "viewer",
  "admin.brand.putDistributor": "admin",
  "admin.brand.partner": "viewer",
  "admin.brand.putPartner": "admin",
  "admin.customers.get": "viewer",
  "admin.customers.signInLink": "agent",
  "admin.customers.mute": "agent",
  "admin.customers.unmute": "agent",
  "admin.customers.report": "viewer",
  "admin.plans.list": "viewer",
  "admin.billingCodes.list": "viewer",
  "admin.billingCodes.create": "billing",
  "admin.billingCodes.update": "billing",
  "admin.billingCodes.setRetired": "billing",
  "admin.billingCodes.delete": "billing",
  "admin.webhooks.list": "viewer",
  "admin.webhooks.partnerEndpoints": "viewer",
  "admin.webhooks.endpoint": "viewer",
  "admin.webhooks.get": "viewer",
  "admin.webhooks.create": "admin",
  "admin.webhooks.update": "admin",
  "admin.webhooks.delete": "admin",
  "admin.webhooks.deliveries": "viewer",
  "admin.webhooks.requeueDelivery": "admin",
  "admin.webhooks.recover": "admin",
  "admin.webhooks.sendTest": "admin",
  "admin.webhooks.secrets": "viewer",
  "admin.webhooks.generateSecret": "admin",
  "admin.webhooks.cycleSecret": "admin",
  "admin.webhooks.deactivateSecret": "admin",
  "admin.mail.list": "viewer",
  "admin.mail.get": "viewer",
  "admin.mail.attachment": "viewer",
  "admin.account.changePassword": "viewer",
  "admin.account.signOutEverywhere": "viewer",
  "admin.domains.overview": "viewer",
  "admin.domains.attest": "agent",
  "admin.staff.list": "viewer",
  "admin.staff.invite": "owner",
  "admin.staff.withdrawInvitation": "owner",
  "admin.staff.changeRole": "owner",
  "admin.staff.setBreakGlass": "owner",
  "admin.staff.resetMfa": "owner",
  "admin.staff.remove": "owner",
  "admin.security.settings": "viewer",
  "admin.security.setSso": "owner",
  "admin.security.removeSso": "owner",
  "admin.security.setMfaRequired": "owner",
  "admin.security.mfa.status": "viewer",
  "admin.security.mfa.begin": "viewer",
  "admin.security.mfa.confirm": "viewer",
  "admin.audit.list": "viewer",
};

/** Callable while enrolment in a required MFA is pending: what the enrolment page needs. */
const BEFORE_MFA = ["admin.me", "admin.security.mfa.status", "admin.security.mfa.begin", "admin.security.mfa.confirm"];

const procedures = uiRouter._def.procedures as unknown as Record<string, { _def: { meta?: AppMeta; type: string } }>;
const adminPaths = Object.keys(procedures).filter((path) => path.startsWith("admin."));

let testDb: TestDatabase;
let org: TestOrg;
const sessions = {} as Record<StaffRole, UiSession>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  for (const role of STAFF_ROLES) sessions[role] = await createStaffSession(testDb.db, org.distributor.id, role);
});
afterAll(async () => {
  await testDb?.close();
});

/** How a call with an empty input ended: the role refusal's message, or "passed" (anything else: the procedure ran or refused the input). */
async function outcome(session: UiSession, path: string): Promise<string> {
  let target: any = uiCallerAs(testDb.db, session);
  for (const part of path.split(".")) target = target[part];
  try {
    await target({});
    return "passed";
  } catch (error) {
    const cause = error instanceof TRPCError ? error.cause : error;
    const message = cause instanceof Error ? cause.message : String(cause);
    return (cause as { code?: string }).code === "FORBIDDEN" ? `403 ${message}` : "passed";
  }
}

describe("the role matrix", () => {
  it("every admin procedure states its rule, and the table here lists each one with the same rule", () => {
    const stated = Object.fromEntries(adminPaths.map((path) => [path, procedures[path]!._def.meta?.staffRule ?? "(none)"]));
    expect(stated).toEqual(EXPECTED);
  });

  it("only the enrolment's own procedures are open before a required MFA enrolment", () => {
    expect(adminPaths.filter((path) => procedures[path]!._def.meta?.beforeMfaEnrolment).sort()).toEqual([...BEFORE_MFA].sort());
  });

  for (const role of STAFF_ROLES) {
    it(`${role}: refused exactly what its role lacks, with the role needed named`, async () => {
      const expected: Record<string, string> = {};
      const actual: Record<string, string> = {};
      for (const path of adminPaths) {
        const rule = EXPECTED[path]!;
        expected[path] = roleAllows(rule, role) ? "passed" : `403 ${roleRefusalMessage(rule, role)}`;
        actual[path] = await outcome(sessions[role], path);
      }
      expect(actual).toEqual(expected);
    });
  }

  it("the refusal is a 403 over /api/trpc too, and names the role", async () => {
    const ui = await startUiServer(testDb.db);
    try {
      const error = await clientError(ui.clientAs(sessions.viewer).admin.partners.create.mutate({ name: "Refused" } as never));
      expect(error.data?.httpStatus).toBe(403);
      expect(error.message).toBe("This needs the admin role (or owner); your role is viewer");
      expect(await testDb.db.partner.count({ where: { name: "Refused" } })).toBe(0);
    } finally {
      await ui.close();
    }
  });

  it("a role change takes effect on the next call, without signing in again", async () => {
    const session = await createStaffSession(testDb.db, org.distributor.id, "agent");
    expect(await outcome(session, "admin.webhooks.generateSecret")).toBe(`403 ${roleRefusalMessage("admin", "agent")}`);
    await testDb.db.staffUser.update({ where: { id: session.kind === "staff" ? session.staffId : "" }, data: { role: "admin" } });
    expect(await outcome(session, "admin.webhooks.generateSecret")).toBe("passed");
  });

  it("where MFA is required, a password session without MFA reaches nothing but its enrolment", async () => {
    const other = await createTestOrg(testDb.db);
    const session = await createStaffSession(testDb.db, other.distributor.id, "owner");
    await testDb.db.distributor.update({ where: { id: other.distributor.id }, data: { staffMfaRequired: true } });
    for (const path of adminPaths) {
      expect([path, await outcome(session, path)]).toEqual([path, BEFORE_MFA.includes(path) ? "passed" : `403 ${MFA_ENROLMENT_REQUIRED}`]);
    }
  });
});
