import type { Metadata } from "next";
import Link from "next/link";
import { EVENT_TYPES } from "@/server/events/outbox";
import { ENDPOINT_STATES } from "@/server/webhooks/staff-view";
import { HealthBadge } from "../../_components/endpoint-health";
import { DataTable, type Column } from "../../_components/data-table";
import { FilterLinks } from "../../_components/filter-links";
import { Pager } from "../../_components/pager";
import { SigningSecrets } from "../../_components/signing-secrets";
import { WebhookForm } from "../../_components/webhook-form";
import { formatCount } from "../../_lib/format";
import { adminApi, pageParam, textParam, type SearchParams } from "../../_lib/server";
import { DateTime } from "../../_components/date-time";

export const metadata: Metadata = { title: "Webhooks" };

const PROTOCOL_LABELS = { current: "current (v1)", legacy: "earlier", channel: "chat or SIEM channel" } as const;

/** The endpoint's URL, which opens its page (health, settings, delivery log). */
const URL_COLUMN: Column<{ id: string; url: string }> = {
  header: "URL",
  rowHeader: true,
  cell: (endpoint) => (
    <Link href={`/admin/webhooks/${endpoint.id}`} className="wrap">
      {endpoint.url}
    </Link>
  ),
};

export default async function WebhooksPage({ searchParams }: { searchParams: SearchParams }) {
  const query = await searchParams;
  const state = ENDPOINT_STATES.find((known) => known === textParam(query.state));
  const api = await adminApi();
  const [endpoints, partnerEndpoints, secrets] = await Promise.all([
    api.admin.webhooks.list(),
    api.admin.webhooks.partnerEndpoints({ page: pageParam(query.page), state }),
    api.admin.webhooks.secrets(),
  ]);
  const { pagination } = partnerEndpoints;
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Your endpoints receive the events of all your partners&apos; customers, signed with your signing secret (the same as{" "}
        <code>/api/v1/distributors/webhooks</code>). Your partners&apos; own endpoints are listed below them, with their health and delivery
        log.
      </p>

      <section aria-labelledby="endpoints">
        <h2 id="endpoints">Your endpoints</h2>
        {endpoints.length === 0 ? (
          <p>No endpoints yet.</p>
        ) : (
          <DataTable
            rows={endpoints}
            rowKey={(endpoint) => endpoint.id}
            columns={[
              URL_COLUMN,
              { header: "Events", cell: (endpoint) => endpoint.eventTypes.join(", ") },
              { header: "Health", cell: (endpoint) => <HealthBadge health={endpoint.health} /> },
              { header: "Last success", cell: (endpoint) => <DateTime iso={endpoint.health.lastSuccessAt} /> },
              { header: "Attempts", className: "number", cell: (endpoint) => endpoint.maxAttempts },
              { header: "Created", cell: (endpoint) => <DateTime iso={endpoint.createdAt} /> },
            ]}
          />
        )}
      </section>

      <section aria-labelledby="partner-endpoints">
        <h2 id="partner-endpoints">Your partners&apos; endpoints</h2>
        <FilterLinks
          label="Filter partners' endpoints by health"
          options={ENDPOINT_STATES}
          current={state}
          href={(option) => (option ? `/admin/webhooks?state=${option}#partner-endpoints` : "/admin/webhooks#partner-endpoints")}
        />
        {partnerEndpoints.endpoints.length === 0 ? (
          <p>{state ? `No partner endpoint is ${state.replace("-", " ")}.` : "Your partners have no endpoints yet."}</p>
        ) : (
          <>
            <p className="muted" role="status">
              {formatCount(pagination.totalCount)} endpoint{pagination.totalCount === 1 ? "" : "s"}.
            </p>
            <DataTable
              rows={partnerEndpoints.endpoints}
              rowKey={(endpoint) => endpoint.id}
              rowData={(endpoint) => ({ "data-endpoint-id": endpoint.id })}
              columns={[
                { header: "Partner", cell: (endpoint) => (endpoint.owner.kind === "partner" ? endpoint.owner.partnerName : null) },
                URL_COLUMN,
                { header: "Protocol", cell: (endpoint) => PROTOCOL_LABELS[endpoint.protocol] },
                { header: "Health", cell: (endpoint) => <HealthBadge health={endpoint.health} /> },
                { header: "Last success", cell: (endpoint) => <DateTime iso={endpoint.health.lastSuccessAt} /> },
                { header: "Failed in a row", className: "number", cell: (endpoint) => endpoint.health.consecutiveFailures },
              ]}
            />
          </>
        )}
        <Pager basePath="/admin/webhooks" query={{ state }} pagination={pagination} />
      </section>

      <section aria-labelledby="new-endpoint">
        <h2 id="new-endpoint">Add an endpoint</h2>
        <WebhookForm eventTypes={EVENT_TYPES} />
      </section>

      <section aria-labelledby="signing-secrets">
        <h2 id="signing-secrets">Signing secrets</h2>
        <SigningSecrets secrets={secrets} />
      </section>
    </>
  );
}
