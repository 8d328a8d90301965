import type { Db } from "../db/client";
import type { CustomerStatus } from "../db/generated/enums";
import { notFound } from "../errors";
import { isUuid } from "../uuid";

/**
 * One customer of a distributor's partners as its staff see it in the admin UI (docs/admin-ui.md,
 * "A customer"): what is monitored, what was found, what the service sent about it (events and
 * e-mails), and the support sign-in links staff handed out (audited). Another distributor's
 * customer is not found, exactly like an unknown id.
 */

export const STAFF_CUSTOMER_NOT_FOUND = "Customer not found";
/** Of each list (breaches, events, e-mails, audit entries) the newest this many. */
export const STAFF_CUSTOMER_LIST_LIMIT = 25;

export interface StaffCustomerAsset {
  kind: "domain" | "email";
  value: string;
  source: "partner" | "discovered" | "directory";
  /** A domain's ownership state (`verified`, `unverified`: docs/domains.md), filled by the admin procedure; null for addresses. */
  verification: string | null;
}

export interface StaffCustomerView {
  id: string;
  partner: { id: string; name: string };
  companyName: string;
  reference: string;
  contactEmail: string;
  alertRecipients: string[];
  status: CustomerStatus;
  planName: string;
  localeCode: string;
  threatScore: number;
  createdAt: Date;
  firstScannedAt: Date | null;
  lastScannedAt: Date | null;
  canSignIn: boolean;
  assets: StaffCustomerAsset[];
  breaches: {
    total: number;
    open: number;
    newest: Array<{ id: string; title: string; breachDate: Date; resolved: boolean; emails: string[] }>;
  };
  events: {
    total: number;
    newest: Array<{
      id: string;
      type: string;
      createdAt: Date;
      deliveries: Array<{ endpointId: string; status: string; attempts: number }>;
    }>;
  };
  emails: {
    total: number;
    newest: Array<{ id: string; kind: string; recipient: string; status: string; createdAt: Date; sentAt: Date | null }>;
  };
  /** The audit log's rows about the customer (who: the actor's e-mail, key prefix or `cli`). */
  audit: Array<{ id: string; action: string; actorLabel: string; createdAt: Date }>;
}

/** The customer, when it belongs to one of the distributor's partners; else not found, exactly like an unknown id. */
export async function staffOwnedCustomer(db: Db, distributorId: string, customerId: string) {
  const customer = isUuid(customerId)
    ? await db.customer.findFirst({
        where: { id: customerId, partner: { distributorId } },
        include: {
          partner: { select: { id: true, name: true } },
          plan: { select: { displayName: true } },
          portalUser: { select: { id: true } },
        },
      })
    : null;
  if (!customer) throw notFound(STAFF_CUSTOMER_NOT_FOUND);
  return customer;
}

export async function staffCustomerView(db: Db, distributorId: string, customerId: string): Promise<StaffCustomerView> {
  const customer = await staffOwnedCustomer(db, distributorId, customerId);
  const where = { customerId: customer.id };
  const take = STAFF_CUSTOMER_LIST_LIMIT;
  const [assets, breachTotal, breachOpen, breaches, eventTotal, events, emailTotal, emails, audit] = await Promise.all([
    db.monitoredAsset.findMany({
      where: { ...where, active: true },
      select: { kind: true, value: true, source: true },
      orderBy: [{ kind: "asc" }, { value: "asc" }],
    }),
    db.customerBreach.count({ where }),
    db.customerBreach.count({ where: { ...where, resolved: false } }),
    db.customerBreach.findMany({
      where,
      select: { id: true, resolved: true, emails: true, breach: { select: { title: true, breachDate: true } } },
      orderBy: [{ breach: { breachDate: "desc" } }, { id: "asc" }],
      take,
    }),
    db.outboxEvent.count({ where }),
    db.outboxEvent.findMany({
      where,
      select: { id: true, type: true, createdAt: true },
      orderBy: [{ createdAt: "desc" }, { sequence: "desc" }],
      take,
    }),
    db.notification.count({ where }),
    db.notification.findMany({
      where,
      select: { id: true, kind: true, recipient: true, status: true, createdAt: true, sentAt: true },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take,
    }),
    db.auditEntry.findMany({
      where: { distributorId, targetType: "customer", targetId: customer.id },
      select: { id: true, action: true, actorLabel: true, createdAt: true },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      take,
    }),
  ]);
  const deliveries = events.length
    ? await db.webhookDelivery.findMany({
        where: { eventId: { in: events.map((event) => event.id) } },
        select: { eventId: true, endpointId: true, status: true, attemptCount: true },
        orderBy: { sequence: "asc" },
      })
    : [];
  return {
    id: customer.id,
    partner: customer.partner,
    companyName: customer.companyName,
    reference: customer.reference,
    contactEmail: customer.contactEmail,
    alertRecipients: customer.alertRecipients,
    status: customer.status,
    planName: customer.plan.displayName,
    localeCode: customer.localeCode,
    threatScore: customer.threatScore,
    createdAt: customer.createdAt,
    firstScannedAt: customer.firstScannedAt,
    lastScannedAt: customer.lastScannedAt,
    canSignIn: Boolean(customer.portalUser) && customer.status !== "inactive",
    assets: assets.map((asset) => ({ ...asset, verification: null })),
    breaches: {
      total: breachTotal,
      open: breachOpen,
      newest: breaches.map((entry) => ({
        id: entry.id,
        title: entry.breach.title,
        breachDate: entry.breach.breachDate,
        resolved: entry.resolved,
        emails: entry.emails,
      })),
    },
    events: {
      total: eventTotal,
      newest: events.map((event) => ({
        ...event,
        deliveries: deliveries
          .filter((delivery) => delivery.eventId === event.id)
          .map((delivery) => ({ endpointId: delivery.endpointId, status: delivery.status, attempts: delivery.attemptCount })),
      })),
    },
    emails: { total: emailTotal, newest: emails },
    audit,
  };
}
