import type { Db, Prisma } from "../db/client";
import { notFound } from "../errors";
import { assertEndpointId, WEBHOOK_NOT_FOUND, type Protocol } from "./endpoints";
import type { WebhookOwner } from "./owner";

/**
 * What a distributor's staff see of webhook endpoints in the admin UI (docs/admin-ui.md): the
 * distributor's own and those of its partners, both protocols, each with its health
 * (docs/webhooks.md, "Health and warnings"). Every query is scoped to the distributor: another
 * distributor's endpoint, or its partners', is not found, exactly like an unknown id.
 */
export type DisabledKind = "failing" | "gone" | "manual";
/**
 * `never-succeeded`: enabled, not failing, and nothing it was sent (tests included) was ever
 * delivered, though something failed: a test that failed is not counted as a failing run, yet
 * the endpoint has shown no sign of working.
 */
export type EndpointState = "healthy" | "never-succeeded" | "failing" | "disabled";
export const ENDPOINT_STATES = ["healthy", "never-succeeded", "failing", "disabled"] as const satisfies readonly EndpointState[];

export interface EndpointHealth {
  state: EndpointState;
  enabled: boolean;
  /** Why it is disabled (null while enabled). */
  disabledKind: DisabledKind | null;
  disabledReason: string | null;
  disabledAt: Date | null;
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  failingSince: Date | null;
}

export interface VisibleEndpoint {
  id: string;
  protocol: Protocol;
  url: string;
  eventTypes: string[];
  maxAttempts: number;
  createdAt: Date;
  /** The distributor itself, or one of its partners. */
  owner: { kind: "distributor" } | { kind: "partner"; partnerId: string; partnerName: string };
  health: EndpointHealth;
}

const FIELDS = {
  id: true,
  protocol: true,
  url: true,
  eventTypes: true,
  maxAttempts: true,
  createdAt: true,
  enabled: true,
  disabledKind: true,
  disabledReason: true,
  disabledAt: true,
  lastSuccessAt: true,
  consecutiveFailures: true,
  failingSince: true,
  partnerId: true,
  partner: { select: { name: true } },
} satisfies Prisma.WebhookEndpointSelect;

type Row = Prisma.WebhookEndpointGetPayload<{ select: typeof FIELDS }>;

type HealthRow = Pick<
  Row,
  "enabled" | "disabledKind" | "disabledReason" | "disabledAt" | "lastSuccessAt" | "consecutiveFailures" | "failingSince"
>;

export function healthOf(row: HealthRow, neverSucceeded = false): EndpointHealth {
  return {
    state: !row.enabled ? "disabled" : row.failingSince ? "failing" : neverSucceeded ? "never-succeeded" : "healthy",
    enabled: row.enabled,
    // Endpoints disabled before the kind was recorded: the service's disables always gave a reason.
    disabledKind: row.enabled ? null : (row.disabledKind ?? (row.disabledReason ? "failing" : "manual")),
    disabledReason: row.enabled ? null : row.disabledReason,
    disabledAt: row.enabled ? null : row.disabledAt,
    lastSuccessAt: row.lastSuccessAt,
    consecutiveFailures: row.consecutiveFailures,
    failingSince: row.failingSince,
  };
}

/** Enabled, not failing, no real delivery ever succeeded, and of what was sent (tests included) only failures. */
const NEVER_SUCCEEDED = {
  enabled: true,
  failingSince: null,
  lastSuccessAt: null,
  deliveries: { some: { status: "failed" }, none: { status: "delivered" } },
} satisfies Prisma.WebhookEndpointWhereInput;

/** Which of the rows are `never-succeeded`: one look at the deliveries of those that may be. */
async function neverSucceededIds(db: Db, rows: Row[]): Promise<Set<string>> {
  const candidates = rows.filter((row) => row.enabled && !row.failingSince && !row.lastSuccessAt).map((row) => row.id);
  if (candidates.length === 0) return new Set();
  const found = await db.webhookEndpoint.findMany({ where: { id: { in: candidates }, ...NEVER_SUCCEEDED }, select: { id: true } });
  return new Set(found.map((row) => row.id));
}

async function toVisibleAll(db: Db, rows: Row[]): Promise<VisibleEndpoint[]> {
  const never = await neverSucceededIds(db, rows);
  return rows.map((row) => toVisible(row, never.has(row.id)));
}

function toVisible(row: Row, neverSucceeded: boolean): VisibleEndpoint {
  return {
    id: row.id,
    protocol: row.protocol,
    url: row.url,
    eventTypes: row.eventTypes,
    maxAttempts: row.maxAttempts,
    createdAt: row.createdAt,
    owner: row.partnerId ? { kind: "partner", partnerId: row.partnerId, partnerName: row.partner!.name } : { kind: "distributor" },
    health: healthOf(row, neverSucceeded),
  };
}

const stateFilter: Record<EndpointState, Prisma.WebhookEndpointWhereInput> = {
  healthy: { enabled: true, failingSince: null, NOT: NEVER_SUCCEEDED },
  "never-succeeded": NEVER_SUCCEEDED,
  failing: { enabled: true, failingSince: { not: null } },
  disabled: { enabled: false },
};

/** The distributor's own endpoints (current protocol), newest first, with their health. */
export async function listOwnEndpoints(db: Db, distributorId: string): Promise<VisibleEndpoint[]> {
  const rows = await db.webhookEndpoint.findMany({
    where: { distributorId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: FIELDS,
  });
  return toVisibleAll(db, rows);
}

/** The endpoints of the distributor's partners, both protocols, by partner name, then newest first; optionally one state. */
export async function listPartnerEndpoints(
  db: Db,
  distributorId: string,
  query: { page: number; pageSize: number; state?: EndpointState },
): Promise<{ endpoints: VisibleEndpoint[]; totalCount: number }> {
  const where: Prisma.WebhookEndpointWhereInput = { partner: { distributorId }, ...(query.state ? stateFilter[query.state] : {}) };
  const [totalCount, rows] = await Promise.all([
    db.webhookEndpoint.count({ where }),
    db.webhookEndpoint.findMany({
      where,
      orderBy: [{ partner: { name: "asc" } }, { partnerId: "asc" }, { createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      select: FIELDS,
    }),
  ]);
  return { endpoints: await toVisibleAll(db, rows), totalCount };
}

/**
 * One endpoint the distributor's staff may see: its own or one of its partners'. Returns it with
 * the owner and protocol that the webhook services (delivery log, retry, recover) are called
 * with, so those services check the same scope again. 400 for a malformed id, else 404.
 */
export async function findVisibleEndpoint(
  db: Db,
  distributorId: string,
  id: string,
): Promise<VisibleEndpoint & { ownerRef: WebhookOwner }> {
  assertEndpointId(id);
  const row = await db.webhookEndpoint.findFirst({
    where: { id, OR: [{ distributorId }, { partner: { distributorId } }] },
    select: FIELDS,
  });
  if (!row) throw notFound(WEBHOOK_NOT_FOUND);
  return { ...(await toVisibleAll(db, [row]))[0]!, ownerRef: row.partnerId ? { partnerId: row.partnerId } : { distributorId } };
}

/** When the endpoint's oldest failed delivery (tests excepted) was created: where a recovery of all of them starts. */
export async function oldestFailedDeliveryAt(db: Db, endpointId: string): Promise<Date | null> {
  const oldest = await db.webhookDelivery.findFirst({
    where: { endpointId, status: "failed", isTest: false },
    orderBy: [{ createdAt: "asc" }, { sequence: "asc" }],
    select: { createdAt: true },
  });
  return oldest?.createdAt ?? null;
}
