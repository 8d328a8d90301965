import { Badge } from "./badge";
import { DateTime } from "./date-time";

/** An endpoint's health as the admin procedures return it (docs/webhooks.md, "Health and warnings"). */
export interface EndpointHealthView {
  state: "healthy" | "never-succeeded" | "failing" | "disabled";
  disabledKind: "failing" | "gone" | "manual" | null;
  disabledReason: string | null;
  disabledAt: string | null;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  failingSince: string | null;
}

export const DISABLED_KIND_LABELS: Record<NonNullable<EndpointHealthView["disabledKind"]>, string> = {
  failing: "failed deliveries in a row",
  gone: "the receiver answered 410 Gone",
  manual: "by its owner",
};

/** The state as a badge: "never-succeeded" reads "never succeeded". */
function StateBadge({ state }: { state: EndpointHealthView["state"] }) {
  return <Badge status={state}>{state.replace("-", " ")}</Badge>;
}

/** The state in a word or two (healthy, never succeeded, failing, disabled) and, for a disabled endpoint, why. */
export function HealthBadge({ health }: { health: EndpointHealthView }) {
  return (
    <>
      <StateBadge state={health.state} />
      {health.disabledKind ? <p className="field-hint">{DISABLED_KIND_LABELS[health.disabledKind]}</p> : null}
      {health.state === "failing" ? (
        <p className="field-hint">
          since <DateTime iso={health.failingSince} />
        </p>
      ) : null}
    </>
  );
}

/** Every tracked fact of an endpoint's health. */
export function HealthFacts({ health }: { health: EndpointHealthView }) {
  return (
    <dl className="facts" aria-label="Health">
      <dt>State</dt>
      <dd>
        <StateBadge state={health.state} />
        {health.disabledKind ? ` (${DISABLED_KIND_LABELS[health.disabledKind]})` : null}
      </dd>
      {health.state === "disabled" ? (
        <>
          <dt>Disabled</dt>
          <dd>
            <DateTime iso={health.disabledAt} />
          </dd>
          <dt>Reason</dt>
          <dd className="wrap">{health.disabledReason ?? "—"}</dd>
        </>
      ) : null}
      <dt>Failing since</dt>
      <dd>
        <DateTime iso={health.failingSince} />
      </dd>
      <dt>Failed deliveries in a row</dt>
      <dd>{health.consecutiveFailures}</dd>
      <dt>Last success</dt>
      <dd>
        <DateTime iso={health.lastSuccessAt} />
      </dd>
    </dl>
  );
}
