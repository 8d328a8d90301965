import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "../../../_components/badge";
import { DataTable } from "../../../_components/data-table";
import { DateTime } from "../../../_components/date-time";
import { CustomerMutes } from "../../../_components/customer-mutes";
import { CustomerPsaCompany } from "../../../_components/psa-connection";
import { SupportSignInLink } from "../../../_components/support-sign-in";
import { roleAllows } from "@/server/auth/staff-roles";
import { formatCount } from "../../../_lib/format";
import { adminApi, foundOr404 } from "../../../_lib/server";

export const metadata: Metadata = { title: "Customer" };

const AUDIT_ACTIONS: Record<string, string> = {
  "customer.support-sign-in-link": "Created a portal sign-in link",
  "customer.mute": "Muted notices",
  "customer.unmute": "Ended a mute",
  "psa.map_customer": "Mapped to a PSA company",
};

/** One customer of one of the distributor's partners: what is monitored and found, what was sent, and support sign-in (docs/admin-ui.md). */
export default async function CustomerPage({ params }: { params: Promise<{ customerId: string }> }) {
  const { customerId } = await params;
  const api = await adminApi();
  const customer = await foundOr404(api.admin.customers.get({ customerId }));
  const { staff } = await api.admin.me();
  const domains = customer.assets.filter((asset) => asset.kind === "domain");
  const emails = customer.assets.filter((asset) => asset.kind === "email");
  return (
    <>
      <p className="breadcrumbs">
        <Link href="/admin/partners">Partners</Link> › <Link href={`/admin/partners/${customer.partner.id}`}>{customer.partner.name}</Link>{" "}
        › <Link href={`/admin/partners/${customer.partner.id}/customers`}>Customers</Link>
      </p>
      <div className="page-heading">
        <h1>{customer.companyName}</h1>
        <Badge status={customer.status} />
      </div>

      <div className="customer-grid">
        <section className="card" aria-labelledby="customer-facts">
          <h2 id="customer-facts">Customer</h2>
          <dl className="facts">
            <dt>Reference</dt>
            <dd className="wrap">{customer.reference}</dd>
            <dt>Plan</dt>
            <dd>{customer.planName}</dd>
            <dt>Contact</dt>
            <dd className="wrap">{customer.contactEmail}</dd>
            <dt>Alert recipients</dt>
            <dd className="wrap">{customer.alertRecipients.join(", ") || "—"}</dd>
            <dt>Locale</dt>
            <dd>{customer.localeCode}</dd>
            <dt>Onboarded</dt>
            <dd>
              <DateTime iso={customer.createdAt} />
            </dd>
            <dt>Last scan</dt>
            <dd>
              <DateTime iso={customer.lastScannedAt} />
            </dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="customer-score">
          <h2 id="customer-score">Exposure</h2>
          <dl className="facts">
            <dt>Threat score</dt>
            <dd>
              <span className="nowrap">
                <strong>{customer.threatScore}</strong>/97
              </span>
            </dd>
            <dt>Breaches not fixed</dt>
            <dd>{formatCount(customer.breaches.open)}</dd>
            <dt>Breaches in all</dt>
            <dd>{formatCount(customer.breaches.total)}</dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="customer-reports">
          <h2 id="customer-reports">Reports</h2>
          {customer.status === "prospect" ? (
            <>
              <p className="muted">
                The one-time exposure check for the sales conversation: exposed mailboxes and counts, no breach names.
              </p>
              <a className="button" href={`/admin/customers/${customer.id}/report?kind=prospect`} download>
                Download the exposure check (PDF)
              </a>
            </>
          ) : (
            <form className="form" method="get" action={`/admin/customers/${customer.id}/report`} aria-label="Executive report">
              <input type="hidden" name="kind" value="executive" />
              <p className="muted">
                The executive report of a period (at most 366 days; left empty, the last 90 days), in the customer&apos;s locale.
              </p>
              <label>
                From <input type="date" name="from" />
              </label>{" "}
              <label>
                To <input type="date" name="to" />
              </label>
              <p>
                <button type="submit" className="button">
                  Download the executive report (PDF)
                </button>
              </p>
            </form>
          )}
        </section>
        <section className="card" aria-labelledby="customer-directory">
          <h2 id="customer-directory">Directory</h2>
          {customer.directory ? (
            <dl className="facts">
              <dt>Source</dt>
              <dd>Microsoft 365 {customer.directory.groupId ? "(one group)" : "(every user)"}</dd>
              <dt>Tenant</dt>
              <dd className="wrap">{customer.directory.tenantId}</dd>
              <dt>State</dt>
              <dd>
                <Badge status={customer.directory.state} />
              </dd>
              {customer.directory.lastError && (
                <>
                  <dt>Last error</dt>
                  <dd className="wrap">{customer.directory.lastError}</dd>
                </>
              )}
              <dt>Last sync</dt>
              <dd>
                <DateTime iso={customer.directory.lastSyncAt} />
              </dd>
              <dt>Users</dt>
              <dd>
                {formatCount(customer.directory.activeUsers)} monitored, {formatCount(customer.directory.inactiveUsers)} left
              </dd>
              <dt>Mailboxes</dt>
              <dd>{formatCount(customer.directory.mailboxCount)}</dd>
            </dl>
          ) : (
            <p className="muted">Not connected: the partner lists this customer&apos;s addresses by hand.</p>
          )}
        </section>
        <section className="card" aria-labelledby="customer-psa">
          <h2 id="customer-psa">PSA company</h2>
          <CustomerPsaCompany
            customerId={customer.id}
            provider={customer.psa.provider}
            companyId={customer.psa.companyId}
            canEdit={roleAllows("admin", staff.role)}
          />
        </section>
        <section className="card" aria-labelledby="customer-support">
          <h2 id="customer-support">Support sign-in</h2>
          {customer.canSignIn ? (
            <>
              <p className="muted">
                A one-time link into this customer&apos;s portal, for a support call. Each one is recorded with your name.
              </p>
              <SupportSignInLink customerId={customer.id} />
            </>
          ) : (
            <p className="muted">This customer cannot sign in to the portal (offboarded, or without a portal user).</p>
          )}
        </section>
      </div>

      <section aria-labelledby="assets">
        <h2 id="assets">Monitored assets</h2>
        {customer.assets.length === 0 ? (
          <p>None.</p>
        ) : (
          <DataTable
            rows={[...domains, ...emails]}
            rowKey={(asset) => `${asset.kind}:${asset.value}`}
            columns={[
              { header: "Asset", rowHeader: true, className: "wrap", cell: (asset) => asset.value },
              { header: "Kind", cell: (asset) => (asset.kind === "domain" ? "Domain" : "E-mail address") },
              {
                header: "Source",
                cell: (asset) =>
                  asset.source === "discovered" ? "Found on a domain" : asset.source === "directory" ? "Microsoft 365" : "Partner",
              },
              { header: "Verification", cell: (asset) => (asset.verification ? <Badge status={asset.verification} /> : "—") },
            ]}
          />
        )}
      </section>

      <section aria-labelledby="breaches">
        <h2 id="breaches">Breaches</h2>
        <p className="muted">
          {formatCount(customer.breaches.total)} in all, newest breach first
          {customer.breaches.total > customer.breaches.newest.length ? ` (the ${customer.breaches.newest.length} newest)` : ""}.
        </p>
        {customer.breaches.newest.length > 0 ? (
          <DataTable
            rows={customer.breaches.newest}
            rowKey={(breach) => breach.id}
            columns={[
              { header: "Breach", rowHeader: true, cell: (breach) => breach.title },
              { header: "Date", className: "nowrap", cell: (breach) => breach.breachDate },
              { header: "Exposed addresses", className: "wrap", cell: (breach) => breach.emails.join(", ") },
              {
                header: "Status",
                cell: (breach) => (breach.resolved ? <Badge status="delivered">fixed</Badge> : <Badge status="failing">not fixed</Badge>),
              },
            ]}
          />
        ) : null}
      </section>

      <section aria-labelledby="mutes">
        <h2 id="mutes">Muted notices</h2>
        <p className="muted">
          Mailboxes and breaches no alert, ticket or chat message is sent about, set by the partner (the API), staff or the customer (the
          portal). Webhooks keep their events.
        </p>
        <CustomerMutes
          customerId={customer.id}
          mutes={customer.mutes}
          breaches={customer.muteBreaches}
          mailboxes={emails.map((asset) => asset.value)}
          canEdit={roleAllows("agent", staff.role)}
        />
      </section>
      <section aria-labelledby="events">
        <h2 id="events">Events sent</h2>
        <p className="muted">
          Webhook events about this customer ({formatCount(customer.events.total)} in all, newest first) and their deliveries to the
          endpoints.
        </p>
        {customer.events.newest.length > 0 ? (
          <DataTable
            rows={customer.events.newest}
            rowKey={(event) => event.id}
            columns={[
              // Both may break anywhere: a fresh customer's row has no link, so the box must not need scrolling on a phone.
              { header: "Event", rowHeader: true, className: "wrap", cell: (event) => event.type },
              { header: "Created", cell: (event) => <DateTime iso={event.createdAt} /> },
              {
                header: "Deliveries",
                className: "wrap",
                cell: (event) =>
                  event.deliveries.length === 0
                    ? "none (no endpoint takes it, or not routed yet)"
                    : event.deliveries.map((delivery, index) => (
                        <span key={index} className="delivery-chip">
                          <Link href={`/admin/webhooks/${delivery.endpointId}`}>
                            <Badge status={delivery.status} />
                          </Link>{" "}
                          {delivery.attempts} attempt{delivery.attempts === 1 ? "" : "s"}
                        </span>
                      )),
              },
            ]}
          />
        ) : null}
      </section>

      <section aria-labelledby="emails">
        <h2 id="emails">E-mails sent</h2>
        <p className="muted">{formatCount(customer.emails.total)} in all, newest first.</p>
        {customer.emails.newest.length > 0 ? (
          <DataTable
            rows={customer.emails.newest}
            rowKey={(email) => email.id}
            columns={[
              {
                header: "Kind",
                rowHeader: true,
                cell: (email) => <Link href={`/admin/mail/${email.id}`}>{email.kind.replace("_", " ")}</Link>,
              },
              { header: "To", className: "wrap", cell: (email) => email.recipient },
              {
                header: "Status",
                cell: (email) => <Badge status={email.status === "sent" ? "delivered" : email.status}>{email.status}</Badge>,
              },
              { header: "Created", cell: (email) => <DateTime iso={email.createdAt} /> },
            ]}
          />
        ) : null}
      </section>

      <section aria-labelledby="audit">
        <h2 id="audit">Audit</h2>
        {customer.audit.length === 0 ? (
          <p className="muted">No changes recorded for this customer.</p>
        ) : (
          <ul className="audit-list">
            {customer.audit.map((entry) => (
              <li key={entry.id}>
                <DateTime iso={entry.createdAt} />: {AUDIT_ACTIONS[entry.action] ?? entry.action}, by{" "}
                <span className="wrap">{entry.actorLabel}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
