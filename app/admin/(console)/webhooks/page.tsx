import type { Metadata } from "next";
import Link from "next/link";
import { EVENT_TYPES } from "@/server/events/outbox";
import { Badge } from "../../_components/badge";
import { SigningSecrets } from "../../_components/signing-secrets";
import { WebhookForm } from "../../_components/webhook-form";
import { adminApi } from "../../_lib/server";
import { DateTime } from "../../_components/date-time";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const api = await adminApi();
  const [endpoints, secrets] = await Promise.all([api.admin.webhooks.list(), api.admin.webhooks.secrets()]);
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Your endpoints receive the events of all your partners&apos; customers, signed with your signing secret (the same as{" "}
        <code>/api/v1/distributors/webhooks</code>).
      </p>

      <section aria-labelledby="endpoints">
        <h2 id="endpoints">Endpoints</h2>
        {endpoints.length === 0 ? (
          <p>No endpoints yet.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col" className="number">
                    Attempts
                  </th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((endpoint) => (
                  <tr key={endpoint.id}>
                    <th scope="row">
                      <Link href={`/admin/webhooks/${endpoint.id}`} className="wrap">
                        {endpoint.url}
                      </Link>
                    </th>
                    <td>{endpoint.eventTypes.join(", ")}</td>
                    <td>
                      {endpoint.enabled ? <Badge status="enabled" /> : <Badge status="disabled" />}
                      {endpoint.disabledReason ? <p className="field-hint">{endpoint.disabledReason}</p> : null}
                    </td>
                    <td className="number">{endpoint.maxAttempts}</td>
                    <td><DateTime iso={endpoint.createdAt} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
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
