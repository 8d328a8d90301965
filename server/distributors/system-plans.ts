import type { Queryable } from "../db/client";

/**
 * The system plans every database starts with (idempotent: safe on every start). `features`
 * are stored as a list of names and served as [{feature_name}] by the distributor API.
 */
export const SYSTEM_PLANS = [
  {
    planType: "basic",
    displayName: "Basic",
    isSystemDefault: true,
    allowsInsurance: false,
    sortOrder: 1,
    features: ["Domain and e-mail breach monitoring", "Daily scans", "Breach alerts", "Threat score"],
  },
  {
    planType: "plus",
    displayName: "Plus",
    isSystemDefault: false,
    allowsInsurance: false,
    sortOrder: 2,
    features: [
      "Domain and e-mail breach monitoring",
      "Daily scans",
      "Breach alerts",
      "Threat score",
      "Monthly exposure report",
      "Customer portal",
    ],
  },
  {
    planType: "pro",
    displayName: "Pro",
    isSystemDefault: false,
    allowsInsurance: true,
    sortOrder: 3,
    features: [
      "Domain and e-mail breach monitoring",
      "Daily scans",
      "Breach alerts",
      "Threat score",
      "Monthly exposure report",
      "Customer portal",
      "Cyber insurance eligibility",
    ],
  },
] as const;

export async function seedSystemPlans(db: Queryable): Promise<void> {
  for (const plan of SYSTEM_PLANS) {
    const data = { ...plan, features: [...plan.features] };
    await db.plan.upsert({ where: { planType: plan.planType }, create: data, update: {} });
  }
}
