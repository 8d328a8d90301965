import type { Metadata } from "next";
import Link from "next/link";
import { EVENT_TYPES } from "@/server/events/outbox";
import { endpointApiPath } from "@/server/webhooks/api-paths";
import { Badge } from "../../../_components/badge";
import { DataTable } from "../../../_components/data-table";
import { FilterLinks } from "../../../_components/filter-links";
import { RecoverForm, RefreshButton, RequeueButton, SendTestEvent } from "../../../_components/delivery-actions";
import { HealthFacts } from "../../../_components/endpoint-health";
import { Pager } from "../../../_components/pager";
import { WebhookForm } from "../../../_components/webhook-form";
import { adminApi, foundOr404, pageParam, textParam, type SearchParams } from "../../../_lib/server";
import { DateTime } from "../../../_components/date-time";

export const metadata: Metadata = { title: "Webhook endpoint" };

const DELIVERY_STATUSES = ["pending", "delivering", "delivered", "failed"] as const;

/** An endpoint of the distributor or of one of its partners: health, delivery log, re-queue and recover; the distributor's own also settings and test events. */
export default async function WebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ endpointId: string }>;
  searchParams: SearchParams;
}) {
  const { endpointId } = await params;
  const query = await searchParams;
  const requested = textParam(query.status);
  const status = DELIVERY_STATUSES.find((known) => known === requested);
  const api = await adminApi();
  // The distributor's own endpoint or one of its partners' (another distributor's: the 404 page).
  const endpoint = await foundOr404(api.admin.webhooks.endpoint({ id: endpointId }));
  const own = endpoint.owner.kind === "distributor" ? await api.admin.webhooks.get({ id: endpoint.id }) : undefined;
  const { deliveries, pagination } = await api.admin.webhooks.deliveries({ id: endpoint.id, status, page: pageParam(query.page) });
  const basePath = `/admin/webhooks/${endpoint.id}`;
  const { health } = endpoint;
  const apiPath = endpointApiPath({ id: endpoint.id, protocol: endpoint.protocol, owner: endpoint.owner.kind });
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/webhooks">Webhooks</Link>
      </p>
      <h1 className="wrap">{endpoint.url}</h1>
      <p className="muted">
        {endpoint.owner.kind === "partner" ? (
          <>
            Endpoint of the partner <Link href={`/admin/partners/${endpoint.owner.partnerId}`}>{endpoint.owner.partnerName}</Link>
            {endpoint.protocol === "legacy" ? ", earlier protocol" : ""}
          </>
        ) : (
          "Your endpoint"
        )}{" "}
        · <code>{apiPath}</code>
      </p>
      {health.state === "disabled" && health.disabledKind !== "manual" ? (
        <p className="notice notice-warn">
          Disabled by the service: {health.disabledReason} (<DateTime iso={health.disabledAt} />
          ).{" "}
          {own
            ? "Enable it again below once the receiver works, then recover the failed deliveries."
            : `The partner enables it again (PATCH ${apiPath} with ${endpoint.protocol === "legacy" ? '{"active": true}' : '{"enabled": true}'}) once its receiver works; the failed deliveries can then be recovered here.`}
        </p>
      ) : null}

      <section aria-labelledby="health">
        <h2 id="health">Health</h2>
        <HealthFacts health={health} />
      </section>

      {own ? (
        <>
          <section aria-labelledby="settings">
            <h2 id="settings">Settings</h2>
            <WebhookForm endpoint={own} eventTypes={EVENT_TYPES} />
          </section>

          <section aria-labelledby="test-event">
            <h2 id="test-event">Test event</h2>
            <p className="muted">A signed sample with made-up values, sent once, also while the endpoint is disabled.</p>
            <SendTestEvent endpointId={endpoint.id} eventTypes={endpoint.eventTypes} />
          </section>
        </>
      ) : (
        <section aria-labelledby="settings">
          <h2 id="settings">Settings</h2>
          <dl className="facts">
            <dt>Events</dt>
            <dd>{endpoint.eventTypes.join(", ")}</dd>
            <dt>Attempts per event</dt>
            <dd>{endpoint.maxAttempts}</dd>
            <dt>Created</dt>
            <dd>
              <DateTime iso={endpoint.createdAt} />
            </dd>
          </dl>
          <p className="muted">The partner changes its endpoint through its own API.</p>
        </section>
      )}

      <section aria-labelledby="recover">
        <h2 id="recover">Recover failed deliveries</h2>
        <p className="muted">
          Queues every failed delivery created in the window again, each with a fresh round of attempts
          {own ? "" : ", on the partner's behalf"}. The endpoint must be enabled.{" "}
          {endpoint.oldestFailedAt ? (
            <>
              The oldest failed delivery was created <DateTime iso={endpoint.oldestFailedAt} />.
            </>
          ) : (
            "No delivery has failed."
          )}
        </p>
        <RecoverForm endpointId={endpoint.id} suggestedSince={endpoint.oldestFailedAt} />
      </section>

      <section aria-labelledby="delivery-log">
        <div className="page-heading">
          <h2 id="delivery-log">Delivery log</h2>
          <RefreshButton />
        </div>
        <FilterLinks
          label="Filter deliveries by status"
          options={DELIVERY_STATUSES}
          current={status}
          href={(option) => (option ? `${basePath}?status=${option}` : basePath)}
        />
        {deliveries.length === 0 ? (
          <p>No deliveries{status ? ` with status ${status}` : " yet"}.</p>
        ) : (
          <DataTable
            className="deliveries"
            rows={deliveries}
            rowKey={(delivery) => delivery.id}
            rowData={(delivery) => ({ "data-delivery-id": delivery.id })}
            columns={[
              { header: "Created", cell: (delivery) => <DateTime iso={delivery.createdAt} /> },
              {
                header: "Event",
                rowHeader: true,
                cell: (delivery) => (
                  <>
                    {delivery.eventType} {delivery.test ? <Badge status="neutral">test</Badge> : null}
                    <p className="field-hint">
                      Token <code className="wrap">{delivery.idempotencyToken}</code>
                    </p>
                  </>
                ),
              },
              { header: "Status", cell: (delivery) => <DeliveryStatus delivery={delivery} /> },
              { header: "Attempts", cell: (delivery) => <DeliveryAttempts attempts={delivery.attempts} /> },
              {
                header: "Actions",
                hideHeader: true,
                cell: (delivery) =>
                  delivery.status === "delivered" || delivery.status === "failed" ? (
                    <RequeueButton endpointId={endpoint.id} deliveryId={delivery.id} />
                  ) : delivery.status === "pending" ? (
                    <RequeueButton endpointId={endpoint.id} deliveryId={delivery.id} waiting />
                  ) : null,
              },
            ]}
          />
        )}
        <Pager basePath={basePath} query={{ status }} pagination={pagination} />
      </section>
    </>
  );
}

type Delivery = Awaited<ReturnType<Awaited<ReturnType<typeof adminApi>>["admin"]["webhooks"]["deliveries"]>>["deliveries"][number];

function DeliveryStatus({ delivery }: { delivery: Delivery }) {
  return (
    <>
      <Badge status={delivery.status} />
      {delivery.status === "delivered" ? (
        <p className="field-hint">
          <DateTime iso={delivery.deliveredAt} />
        </p>
      ) : null}
      {delivery.status === "pending" && delivery.nextAttemptAt ? (
        <p className="field-hint">
          next attempt <DateTime iso={delivery.nextAttemptAt} />
        </p>
      ) : null}
      {delivery.error ? <p className="field-error wrap">{delivery.error}</p> : null}
    </>
  );
}

function DeliveryAttempts({ attempts }: { attempts: Delivery["attempts"] }) {
  if (attempts.length === 0) return "none yet";
  return (
    <details>
      <summary>
        {attempts.length} attempt{attempts.length === 1 ? "" : "s"}
      </summary>
      <ol className="attempts">
        {attempts.map((attempt, index) => (
          <li key={index}>
            <DateTime iso={attempt.at} />: {attempt.statusCode ? `HTTP ${attempt.statusCode}` : "no answer"}
            {attempt.durationMs !== null ? `, ${attempt.durationMs} ms` : ""}
            {attempt.fallbackSecret ? ", signed with the fallback secret" : ""}
            {attempt.error ? <span className="field-error wrap"> {attempt.error}</span> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
