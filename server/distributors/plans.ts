import type { Db, Queryable } from "../db/client";
import { config } from "../config";
import { badRequest, notFound } from "../errors";
import { isUuid } from "../uuid";

export interface PlanRecord {
  id: string;
  displayName: string;
  features: Array<{ feature_name: string }>;
  isSystemDefault: boolean;
  planType: string;
  status: string;
  allowsInsurance: boolean;
}

const planSelect = {
  id: true,
  displayName: true,
  features: true,
  isSystemDefault: true,
  planType: true,
  status: true,
  allowsInsurance: true,
} as const;

type PlanRow = { [K in keyof typeof planSelect]: K extends "features" ? unknown : PlanRecord[K] };

function toPlanRecord(row: PlanRow): PlanRecord {
  const features = Array.isArray(row.features) ? row.features : [];
  return {
    id: row.id,
    displayName: row.displayName,
    features: features.filter((feature): feature is string => typeof feature === "string").map((feature_name) => ({ feature_name })),
    isSystemDefault: row.isSystemDefault,
    planType: row.planType,
    status: row.status,
    allowsInsurance: row.allowsInsurance,
  };
}

/** Every plan, in display order. `activeOnly` gives the plans customers can be onboarded on. */
export async function listPlans(db: Db, { activeOnly = false } = {}): Promise<PlanRecord[]> {
  const rows = await db.plan.findMany({
    where: activeOnly ? { status: "active" } : {},
    orderBy: [{ sortOrder: "asc" }, { planType: "asc" }],
    select: planSelect,
  });
  return rows.map(toPlanRecord);
}

/**
 * Plans are system data (seeded; no API changes them), read on every partner plans call, so
 * a process keeps the active list for a short while instead of querying each time.
 */
const ACTIVE_PLANS_TTL_MS = 30_000;
const activePlansCache = new WeakMap<Db, { plans: Promise<PlanRecord[]>; expiresAt: number }>();

export function listActivePlansCached(db: Db): Promise<PlanRecord[]> {
  const cached = activePlansCache.get(db);
  if (cached && cached.expiresAt > Date.now()) return cached.plans;
  const plans = listPlans(db, { activeOnly: true });
  activePlansCache.set(db, { plans, expiresAt: Date.now() + ACTIVE_PLANS_TTL_MS });
  plans.catch(() => activePlansCache.delete(db));
  return plans;
}

export async function getPlan(db: Db, id: string): Promise<PlanRecord> {
  const row = await db.plan.findUnique({ where: { id }, select: planSelect });
  if (!row) throw notFound("Plan not found");
  return toPlanRecord(row);
}

export interface PlanChoice {
  /** A plan's id; wins over planType. */
  planId?: string;
  planType?: string;
}

/**
 * The plan a customer is put on: the plan with `planId`, else the one of `planType`, else the
 * system default. Only active plans; an unknown choice is a validation failure of that field.
 */
export async function resolvePlan(db: Queryable, choice: PlanChoice): Promise<{ id: string; planType: string }> {
  const select = { id: true, planType: true } as const;
  if (choice.planId !== undefined) {
    const plan = isUuid(choice.planId) ? await db.plan.findFirst({ where: { id: choice.planId, status: "active" }, select }) : null;
    if (!plan) throw badRequest("Validation failed: planId: Plan not found");
    return plan;
  }
  if (choice.planType !== undefined) {
    const given = choice.planType.trim().toLowerCase();
    const planType = config.planTypeAliases().get(given) ?? given;
    const plan = await db.plan.findFirst({ where: { planType, status: "active" }, select });
    if (plan) return plan;
    const known = await db.plan.findMany({ where: { status: "active" }, orderBy: { sortOrder: "asc" }, select });
    throw badRequest(
      `Validation failed: planType: Unknown plan type "${choice.planType}"; expected one of ${known.map((p) => p.planType).join(", ")}`,
    );
  }
  const plan = await db.plan.findFirst({ where: { isSystemDefault: true }, select });
  if (!plan) throw new Error("No system default plan: the database was not seeded");
  return plan;
}
