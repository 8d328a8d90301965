import type { Metadata } from "next";
import { Badge } from "../../_components/badge";
import { adminApi } from "../../_lib/server";

export const metadata: Metadata = { title: "Plans" };

export default async function PlansPage() {
  const plans = await (await adminApi()).admin.plans.list();
  return (
    <>
      <h1>Plans</h1>
      <p className="muted">
        The plans partners onboard customers on (system plans; the same for every distributor). A partner&apos;s billing code for each plan
        sets its price in the billing overview.
      </p>
      <div className="plans">
        {plans.map((plan) => (
          <section key={plan.id} className="card" aria-labelledby={`plan-${plan.planType}`}>
            <h2 id={`plan-${plan.planType}`}>
              {plan.displayName} {plan.isSystemDefault ? <Badge status="neutral">default</Badge> : null}
            </h2>
            <dl className="facts">
              <dt>Plan type</dt>
              <dd>
                <code>{plan.planType}</code>
              </dd>
              <dt>Status</dt>
              <dd>
                <Badge status={plan.status} />
              </dd>
              <dt>Insurance</dt>
              <dd>{plan.allowsInsurance ? "Allowed" : "Not included"}</dd>
              <dt>Plan ID</dt>
              <dd>
                <code className="wrap">{plan.id}</code>
              </dd>
            </dl>
            <h3>Features</h3>
            <ul>
              {plan.features.map((feature) => (
                <li key={feature.feature_name}>{feature.feature_name}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
