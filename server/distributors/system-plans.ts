import type { Queryable } from "../db/client";

/**
 * What every plan gives, the same on each: the service does not gate any of these by plan (the
 * portal link is for every onboarded customer, the monthly report follows the customer's
 * sendMonthlyReport), so the lists say exactly that (docs/distributors.md, "Plans"). Plans differ
 * in their billing code and price, and Pro in insurance eligibility.
 */
const EVERY_PLAN = [
  "Domain and e-mail breach monitoring",
  "Daily scans",
  "Breach alerts",
  "Threat score",
  "Customer portal",
  "Monthly exposure report (when enabled for the customer)",
] as const;

export const SYSTEM_PLANS = [
  { planType: "basic", displayName: "Basic", isSystemDefault: true, allowsInsurance: false, sortOrder: 1, features: [...EVERY_PLAN] },
  { planType: "plus", displayName: "Plus", isSystemDefault: false, allowsInsurance: false, sortOrder: 2, features: [...EVERY_PLAN] },
  {
    planType: "pro",
    displayName: "Pro",
    isSystemDefault: false,
    allowsInsurance: true,
    sortOrder: 3,
    features: [...EVERY_PLAN, "Cyber insurance eligibility"],
  },
] as const;

/**
 * The system plans every database starts with (idempotent: safe on every start). `features`
 * are stored as a list of names and served as [{feature_name}] by the distributor API.
 */
export async function seedSystemPlans(db: Queryable): Promise<void> {
  for (const plan of SYSTEM_PLANS) {
    const data = { ...plan, features: [...plan.features] };
    // The feature lists are the service's own description of what it does: kept current on every start.
    await db.plan.upsert({ where: { planType: plan.planType }, create: data, update: { features: data.features } });
  }
}
