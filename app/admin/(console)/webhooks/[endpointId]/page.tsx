import type { Metadata } from "next";
import Link from "next/link";
import { EVENT_TYPES } from "@/server/events/outbox";
import { Badge } from "../../../_components/badge";
import { FilterLinks } from "../../../_components/filter-links";
import { RefreshButton, RequeueButton, SendTestEvent } from "../../../_components/delivery-actions";
import { Pager } from "../../../_components/pager";
import { WebhookForm } from "../../../_components/webhook-form";
import { adminApi, foundOr404, pageParam, textParam, type SearchParams } from "../../../_lib/server";
import { DateTime } from "../../../_components/date-time";

export const metadata: Metadata = { title: "Webhook endpoint" };

const DELIVERY_STATUSES = ["pending", "delivering", "delivered", "failed"] as const;

export default async function WebhookPage({ params, searchParams }: { params: Promise<{ endpointId: string }>; searchParams: SearchParams }) {
  const { endpointId } = await params;
  const query = await searchParams;
  const requested = textParam(query.status);
  const status = DELIVERY_STATUSES.find((known) => known === requested);
  const api = await adminApi();
  const endpoint = await foundOr404(api.admin.webhooks.get({ id: endpointId }));
  const { deliveries, pagination } = await api.admin.webhooks.deliveries({ id: endpoint.id, status, page: pageParam(query.page) });
  const basePath = `/admin/webhooks/${endpoint.id}`;
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/webhooks">Webhooks</Link>
      </p>
      <h1 className="wrap">{endpoint.url}</h1>
      {endpoint.disabledReason ? (
        <p className="notice notice-warn">
          Disabled by the service: {endpoint.disabledReason} (<DateTime iso={endpoint.disabledAt} />). Enable it again below once the receiver works.
        </p>
      ) : null}

      <section aria-labelledby="settings">
        <h2 id="settings">Settings</h2>
        <WebhookForm endpoint={endpoint} eventTypes={EVENT_TYPES} />
      </section>

      <section aria-labelledby="test-event">
        <h2 id="test-event">Test event</h2>
        <p className="muted">A signed sample with made-up values, sent once, also while the endpoint is disabled.</p>
        <SendTestEvent endpointId={endpoint.id} eventTypes={endpoint.eventTypes} />
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
          <div className="table-scroll">
            <table className="deliveries">
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((delivery) => (
                  <tr key={delivery.id} data-delivery-id={delivery.id}>
                    <td><DateTime iso={delivery.createdAt} /></td>
                    <th scope="row">
                      {delivery.eventType} {delivery.test ? <Badge status="neutral">test</Badge> : null}
                      <p className="field-hint">
                        Token <code>{delivery.idempotencyToken}</code>
                      </p>
                    </th>
                    <td>
                      <Badge status={delivery.status} />
                      {delivery.status === "delivered" ? <p className="field-hint"><DateTime iso={delivery.deliveredAt} /></p> : null}
                      {delivery.status === "pending" && delivery.nextAttemptAt ? (
                        <p className="field-hint">next attempt <DateTime iso={delivery.nextAttemptAt} /></p>
                      ) : null}
                      {delivery.error ? <p className="field-error">{delivery.error}</p> : null}
                    </td>
                    <td>
                      {delivery.attempts.length === 0 ? (
                        "none yet"
                      ) : (
                        <details>
                          <summary>
                            {delivery.attempts.length} attempt{delivery.attempts.length === 1 ? "" : "s"}
                          </summary>
                          <ol className="attempts">
                            {delivery.attempts.map((attempt, index) => (
                              <li key={index}>
                                <DateTime iso={attempt.at} />: {attempt.statusCode ? `HTTP ${attempt.statusCode}` : "no answer"}
                                {attempt.durationMs !== null ? `, ${attempt.durationMs} ms` : ""}
                                {attempt.fallbackSecret ? ", signed with the fallback secret" : ""}
                                {attempt.error ? <span className="field-error"> {attempt.error}</span> : null}
                              </li>
                            ))}
                          </ol>
                        </details>
                      )}
                    </td>
                    <td>
                      {delivery.status === "delivered" || delivery.status === "failed" ? <RequeueButton endpointId={endpoint.id} deliveryId={delivery.id} /> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager basePath={basePath} query={{ status }} pagination={pagination} />
      </section>
    </>
  );
}
