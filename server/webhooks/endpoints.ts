import { randomUUID } from "node:crypto";
import type { Db, Prisma, Queryable } from "../db/client";
import { badRequest, notFound } from "../errors";
import { encryptSecret } from "../app-key";
import { UUID_PATTERN } from "../uuid";
import { lockOwner, type WebhookOwner } from "./owner";
import { ensureActiveSecret } from "./secrets";
import { checkWebhookUrl } from "./url-safety";

/**
 * Webhook endpoints of both protocols (docs/webhooks.md): the current one registered
 * under /api/v1/... (partners and distributors) and the earlier one under the unversioned
 * /api/integrations/webhooks (partners). Every query is scoped to the owner and the protocol, so
 * each surface sees and edits only its own kind.
 */
export type Protocol = "current" | "legacy" | "channel";

export const WEBHOOK_NOT_FOUND = "Webhook not found";
export const INVALID_WEBHOOK_ID = "Invalid webhook ID";
export const DEFAULT_MAX_ATTEMPTS = 3;
/** Earlier protocol: the first attempt and up to 3 retries (docs/webhooks.md, retry schedule). */
export const LEGACY_MAX_ATTEMPTS = 4;

/** How deliveries to an endpoint are signed (docs/webhooks.md): the service's own exchange or Standard Webhooks. */
export const SIGNATURE_SCHEMES = ["x-signature", "standard-webhooks"] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];
export type DisabledKind = "failing" | "gone" | "manual";

export interface EndpointRecord {
  id: string;
  protocol: Protocol;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  maxAttempts: number;
  /** Always "x-signature" on the earlier protocol. */
  signatureScheme: SignatureScheme;
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  failingSince: Date | null;
  /** Null while enabled. */
  disabledKind: DisabledKind | null;
  disabledReason: string | null;
  disabledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface EndpointInput {
  url: string;
  eventTypes: string[];
  enabled?: boolean;
  /** Current protocol only (1 to 3, default 3). */
  maxAttempts?: number;
  /** Current protocol only (default "x-signature"). */
  signatureScheme?: SignatureScheme;
}

const RECORD = {
  id: true,
  protocol: true,
  url: true,
  eventTypes: true,
  enabled: true,
  maxAttempts: true,
  signatureScheme: true,
  lastSuccessAt: true,
  consecutiveFailures: true,
  failingSince: true,
  disabledKind: true,
  disabledReason: true,
  disabledAt: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.WebhookEndpointSelect;

type EndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof RECORD }>;

const SCHEME_OF_ROW = { x_signature: "x-signature", standard_webhooks: "standard-webhooks" } as const;
const ROW_SCHEME: Record<SignatureScheme, keyof typeof SCHEME_OF_ROW> = {
  "x-signature": "x_signature",
  "standard-webhooks": "standard_webhooks",
};

function toRecord({ signatureScheme, disabledKind, ...row }: EndpointRow): EndpointRecord {
  return {
    ...row,
    signatureScheme: SCHEME_OF_ROW[signatureScheme],
    // Rows disabled before the kind was kept: the service wrote a reason, its owner did not.
    disabledKind: row.enabled ? null : (disabledKind ?? (row.disabledReason ? "failing" : "manual")),
  };
}

/** The columns of a disable by the endpoint's owner. */
const manualDisable = () => ({ disabledKind: "manual" as const, disabledReason: null, disabledAt: new Date() });

/** Path ids are uuids; anything else cannot name an endpoint (and must not reach a uuid column). */
export function assertEndpointId(id: string): void {
  if (!UUID_PATTERN.test(id)) throw badRequest(INVALID_WEBHOOK_ID);
}

/**
 * Registers an endpoint and returns it with its signing secret: for the current protocol the
 * organization's active token (generated first when it has none), for the earlier protocol the
 * endpoint's own new secret.
 */
export async function createEndpoint(
  db: Db,
  owner: WebhookOwner,
  protocol: Protocol,
  input: EndpointInput,
): Promise<{ endpoint: EndpointRecord; secret: string }> {
  const url = await checkWebhookUrl(input.url);
  return db.$transaction(async (tx) => {
    await lockOwner(tx, owner);
    const secret = protocol === "current" ? await ensureActiveSecret(tx, owner) : randomUUID();
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        ...owner,
        protocol,
        url,
        eventTypes: [...new Set(input.eventTypes)],
        enabled: input.enabled ?? true,
        ...(input.enabled === false ? manualDisable() : {}),
        maxAttempts: protocol === "current" ? (input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS) : LEGACY_MAX_ATTEMPTS,
        signatureScheme: protocol === "current" && input.signatureScheme ? ROW_SCHEME[input.signatureScheme] : undefined,
        secretCiphertext: protocol === "legacy" ? encryptSecret(secret) : null,
      },
      select: RECORD,
    });
    return { endpoint: toRecord(endpoint), secret };
  });
}

export async function listEndpoints(db: Db, owner: WebhookOwner, protocol: Protocol): Promise<EndpointRecord[]> {
  const rows = await db.webhookEndpoint.findMany({
    where: { ...owner, protocol },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: RECORD,
  });
  return rows.map(toRecord);
}

/** One endpoint of the owner and protocol; 400 for a malformed id, 404 for anything else not found. */
export async function getEndpoint(db: Queryable, owner: WebhookOwner, protocol: Protocol, id: string): Promise<EndpointRecord> {
  assertEndpointId(id);
  const endpoint = await db.webhookEndpoint.findFirst({ where: { ...owner, protocol, id }, select: RECORD });
  if (!endpoint) throw notFound(WEBHOOK_NOT_FOUND);
  return toRecord(endpoint);
}

/**
 * Changes the given fields. Disabling an enabled endpoint records a manual disable; enabling a
 * disabled one clears the disable and the failure run. Sending the state it already has changes
 * neither (an owner's tool that always sends `enabled: true` does not reset the failure run, and
 * disabling again keeps why it was disabled first).
 */
export async function updateEndpoint(
  db: Db,
  owner: WebhookOwner,
  protocol: Protocol,
  id: string,
  changes: Partial<EndpointInput>,
): Promise<EndpointRecord> {
  const current = await getEndpoint(db, owner, protocol, id);
  const url = changes.url === undefined ? undefined : await checkWebhookUrl(changes.url);
  const toggle =
    changes.enabled === true && !current.enabled
      ? { enabled: true, disabledKind: null, disabledReason: null, disabledAt: null, consecutiveFailures: 0, failingSince: null }
      : changes.enabled === false && current.enabled
        ? { enabled: false, ...manualDisable() }
        : {};
  const data: Prisma.WebhookEndpointUpdateManyMutationInput = {
    url,
    eventTypes: changes.eventTypes === undefined ? undefined : [...new Set(changes.eventTypes)],
    maxAttempts: protocol === "current" ? changes.maxAttempts : undefined,
    signatureScheme: protocol === "current" && changes.signatureScheme ? ROW_SCHEME[changes.signatureScheme] : undefined,
    ...toggle,
  };
  // nothing to write (e.g. only `enabled` with the state it has): Prisma would report no row updated
  if (Object.values(data).every((value) => value === undefined)) return current;
  const { count } = await db.webhookEndpoint.updateMany({ where: { ...owner, protocol, id }, data });
  if (count === 0) throw notFound(WEBHOOK_NOT_FOUND);
  return getEndpoint(db, owner, protocol, id);
}

/** Removes the endpoint and, with it, all its deliveries and their attempts (the delivery log). */
export async function deleteEndpoint(db: Db, owner: WebhookOwner, protocol: Protocol, id: string): Promise<void> {
  assertEndpointId(id);
  const { count } = await db.webhookEndpoint.deleteMany({ where: { ...owner, protocol, id } });
  if (count === 0) throw notFound(WEBHOOK_NOT_FOUND);
}
