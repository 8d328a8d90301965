import { decryptSecret, encryptSecret } from "../app-key";
import { lockOwnedCustomer } from "../customers/ownership";
import type { Db, Prisma, Queryable } from "../db/client";
import type { PsaConnection, PsaProvider } from "../db/generated/client";
import { AppError, badRequest, notFound } from "../errors";
import { requestPartnerPsaSync } from "../findings/psa-requests";
import { wakeJobWorkers } from "../jobs/wake";
import { checkWebhookUrl } from "../webhooks/url-safety";
import type { NoticeDigest } from "../notifications/quiet";
import { PsaError, type PsaAdapter } from "./adapter";
import { currentDigestSlot } from "./digest";
import { autotaskAdapter, discoverAutotaskZone, type AutotaskSettings } from "./autotask";
import { connectWiseAdapter, type ConnectWiseSettings } from "./connectwise";
import { queuePsaFailingNotice } from "./failing-notice";
import { haloAdapter, type HaloSettings } from "./halopsa";

export const PSA_NOT_CONNECTED = "No PSA connected";

/** PUT /integrations/psa: every provider's fields, the ones of `provider` required (checked here). */
export interface PsaConnectionInput {
  provider: PsaProvider;
  ticketPerMailbox?: boolean;
  digest?: NoticeDigest;
  site?: string;
  companyId?: string;
  publicKey?: string;
  privateKey?: string;
  clientId?: string;
  boardId?: number;
  zoneUrl?: string;
  username?: string;
  secret?: string;
  integrationCode?: string;
  queueId?: number;
  url?: string;
  clientSecret?: string;
  ticketTypeId?: number;
  tenant?: string;
  closedStatusId?: number;
  priorityIds?: { high?: number; normal?: number };
}

/** A connection as the API shows it: never a secret. */
export interface PsaView {
  provider: PsaProvider;
  baseUrl: string;
  settings: Record<string, unknown>;
  ticketPerMailbox: boolean;
  digest: NoticeDigest;
  state: "ok" | "failing";
  failingSince: string | null;
  lastError: string | null;
  lastPolledAt: string | null;
  mappedCustomers: number;
  openTickets: number;
}

const REQUIRED: Record<PsaProvider, Array<keyof PsaConnectionInput>> = {
  connectwise: ["site", "companyId", "publicKey", "privateKey", "clientId", "boardId"],
  autotask: ["username", "secret", "integrationCode", "queueId"],
  halopsa: ["url", "clientId", "clientSecret", "ticketTypeId"],
};

/** The URL rules of webhook endpoints, the refusal naming the field. */
async function checkedUrl(field: string, raw: string): Promise<string> {
  try {
    return (await checkWebhookUrl(raw)).replace(/\/+$/, "");
  } catch (error) {
    if (error instanceof AppError) throw badRequest(error.message.replace("Validation failed: url:", `Validation failed: ${field}:`));
    throw error;
  }
}

/** The fields of each provider that are secrets (write-only). */
const SECRET_FIELDS: Record<PsaProvider, ReadonlyArray<keyof PsaConnectionInput>> = {
  connectwise: ["publicKey", "privateKey"],
  autotask: ["secret"],
  halopsa: ["clientSecret"],
};

export const PSA_SECRET_FOR_NEW_ADDRESS =
  "Required when the address changes (the stored secret is only sent to the address it was given for)";

/** The stored connection whose secrets an edit may keep. */
interface StoredSecrets {
  baseUrl: string;
  secrets: Record<string, string>;
}

async function connectionFields(input: PsaConnectionInput, stored?: StoredSecrets) {
  const secretFields = SECRET_FIELDS[input.provider];
  for (const field of REQUIRED[input.provider]) {
    const value = input[field];
    if (stored && secretFields.includes(field)) continue;
    if (value === undefined || value === "") throw badRequest(`Validation failed: ${field}: Required for the ${input.provider} provider`);
  }
  const fields = await fieldsOf(input);
  if (stored) {
    const secrets = fields.secrets as Record<string, string | undefined>;
    for (const field of Object.keys(secrets).filter((name) => !secrets[name])) {
      if (fields.baseUrl !== stored.baseUrl || !stored.secrets[field])
        throw badRequest(`Validation failed: ${field}: ${PSA_SECRET_FOR_NEW_ADDRESS}`);
      secrets[field] = stored.secrets[field];
    }
  }
  return fields;
}

async function fieldsOf(input: PsaConnectionInput) {
  const extras = {
    ...(input.closedStatusId && { closedStatusId: input.closedStatusId }),
    ...(input.priorityIds && { priorityIds: input.priorityIds }),
  };
  if (input.provider === "connectwise") {
    const site = await checkedUrl("site", input.site!);
    return {
      baseUrl: site,
      settings: { companyId: input.companyId!, clientId: input.clientId!, boardId: input.boardId!, ...extras },
      secrets: { publicKey: input.publicKey!, privateKey: input.privateKey! },
    };
  }
  if (input.provider === "halopsa") {
    return {
      baseUrl: await checkedUrl("url", input.url!),
      settings: { clientId: input.clientId!, ticketTypeId: input.ticketTypeId!, ...(input.tenant && { tenant: input.tenant }), ...extras },
      secrets: { clientSecret: input.clientSecret! },
    };
  }
  const zone = input.zoneUrl ?? (await discoveredZone(input.username!));
  return {
    baseUrl: await checkedUrl("zoneUrl", zone),
    settings: {
      username: input.username!,
      integrationCode: input.integrationCode!,
      queueId: input.queueId!,
      ...(input.closedStatusId && { closedStatus: input.closedStatusId }),
      ...(input.priorityIds && { priorities: input.priorityIds }),
    },
    secrets: { secret: input.secret! },
  };
}

async function discoveredZone(username: string): Promise<string> {
  try {
    return await discoverAutotaskZone(username);
  } catch (error) {
    if (error instanceof PsaError)
      throw badRequest(`Validation failed: zoneUrl: The zone could not be found (${error.message}); give zoneUrl`);
    throw error;
  }
}

/**
 * The stored connection's secrets, for an edit that leaves secret fields blank (the admin UI): kept
 * only for the same provider and the same address, so a changed address never receives them.
 */
async function storedSecretsOf(db: Queryable, partnerId: string, provider: PsaProvider): Promise<StoredSecrets | undefined> {
  const existing = await db.psaConnection.findUnique({ where: { partnerId } });
  if (!existing || existing.provider !== provider) return undefined;
  return { baseUrl: existing.baseUrl, secrets: JSON.parse(decryptSecret(existing.credentialsCiphertext)) as Record<string, string> };
}

/**
 * Connects the partner's PSA, or replaces the connection (the state starts over as ok; the
 * tickets already opened stay recorded when the provider is the same). Secrets are stored
 * encrypted. Queues a sync, which tickets the mapped customers' open findings. With
 * `keepStoredSecrets` a secret left out keeps the stored one (same provider and address only).
 */
export async function savePsaConnection(
  db: Db,
  partnerId: string,
  input: PsaConnectionInput,
  { keepStoredSecrets = false }: { keepStoredSecrets?: boolean } = {},
): Promise<PsaView> {
  const fields = await connectionFields(input, keepStoredSecrets ? await storedSecretsOf(db, partnerId, input.provider) : undefined);
  const data = {
    provider: input.provider,
    baseUrl: fields.baseUrl,
    settings: fields.settings as Prisma.InputJsonValue,
    credentialsCiphertext: encryptSecret(JSON.stringify(fields.secrets)),
    ticketPerMailbox: input.ticketPerMailbox ?? false,
    digest: input.digest ?? "off",
    // A digest starts with the next slot: what is open now is ticketed then.
    lastDigestSlot: input.digest && input.digest !== "off" ? currentDigestSlot(input.digest) : null,
    state: "ok" as const,
    failingSince: null,
    lastError: null,
  };
  await db.$transaction(async (tx) => {
    const existing = await tx.psaConnection.findUnique({ where: { partnerId }, select: { id: true, provider: true } });
    if (existing && existing.provider !== input.provider) await tx.psaConnection.delete({ where: { id: existing.id } });
    await tx.psaConnection.upsert({ where: { partnerId }, create: { partnerId, ...data }, update: data });
    await requestPartnerPsaSync(tx, partnerId);
  });
  await wakeJobWorkers();
  return getPsaConnection(db, partnerId);
}

export async function getPsaConnection(db: Queryable, partnerId: string): Promise<PsaView> {
  const connection = await db.psaConnection.findUnique({ where: { partnerId } });
  if (!connection) throw notFound(PSA_NOT_CONNECTED);
  const [mappedCustomers, openTickets] = await Promise.all([
    db.psaCustomerCompany.count({ where: { customer: { partnerId } } }),
    db.psaTicket.count({ where: { connectionId: connection.id, closedAt: null } }),
  ]);
  return {
    provider: connection.provider,
    baseUrl: connection.baseUrl,
    settings: connection.settings as Record<string, unknown>,
    ticketPerMailbox: connection.ticketPerMailbox,
    digest: connection.digest,
    state: connection.state,
    failingSince: connection.failingSince?.toISOString() ?? null,
    lastError: connection.lastError,
    lastPolledAt: connection.lastPolledAt?.toISOString() ?? null,
    mappedCustomers,
    openTickets,
  };
}

/** A connection's fields as the form that edits it shows them: every one but the secrets. */
export function editablePsaFields(view: Pick<PsaView, "provider" | "baseUrl" | "settings" | "ticketPerMailbox" | "digest">) {
  const settings = view.settings;
  const number = (value: unknown) => (typeof value === "number" ? value : undefined);
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const priorities = (view.provider === "autotask" ? settings.priorities : settings.priorityIds) as
    { high?: number; normal?: number } | undefined;
  const common = {
    provider: view.provider,
    ticketPerMailbox: view.ticketPerMailbox,
    digest: view.digest,
    closedStatusId: number(view.provider === "autotask" ? settings.closedStatus : settings.closedStatusId),
    priorityIds: priorities ? { high: number(priorities.high), normal: number(priorities.normal) } : undefined,
  };
  if (view.provider === "connectwise")
    return {
      ...common,
      site: view.baseUrl,
      companyId: text(settings.companyId),
      clientId: text(settings.clientId),
      boardId: number(settings.boardId),
    };
  if (view.provider === "halopsa")
    return {
      ...common,
      url: view.baseUrl,
      clientId: text(settings.clientId),
      ticketTypeId: number(settings.ticketTypeId),
      tenant: text(settings.tenant),
    };
  return {
    ...common,
    zoneUrl: view.baseUrl,
    username: text(settings.username),
    integrationCode: text(settings.integrationCode),
    queueId: number(settings.queueId),
  };
}

/** The customer's PSA company, if it is mapped. */
export async function customerPsaCompany(db: Queryable, customerId: string): Promise<string | null> {
  return (await db.psaCustomerCompany.findUnique({ where: { customerId }, select: { companyId: true } }))?.companyId ?? null;
}

/** DELETE /integrations/psa: nothing more is sent; the record of tickets opened goes with it. */
export async function deletePsaConnection(db: Db, partnerId: string): Promise<void> {
  const deleted = await db.psaConnection.deleteMany({ where: { partnerId } });
  if (deleted.count === 0) throw notFound(PSA_NOT_CONNECTED);
}

/** The adapter of a stored connection, its secrets decrypted for this use only. */
export function adapterFor(connection: Pick<PsaConnection, "provider" | "baseUrl" | "settings" | "credentialsCiphertext">): PsaAdapter {
  const secrets = JSON.parse(decryptSecret(connection.credentialsCiphertext)) as Record<string, string>;
  const settings = connection.settings as Record<string, unknown>;
  if (connection.provider === "connectwise") {
    return connectWiseAdapter(
      { ...(settings as unknown as ConnectWiseSettings), site: connection.baseUrl },
      { publicKey: secrets.publicKey!, privateKey: secrets.privateKey! },
    );
  }
  if (connection.provider === "halopsa") {
    return haloAdapter({ ...(settings as unknown as HaloSettings), url: connection.baseUrl }, { clientSecret: secrets.clientSecret! });
  }
  return autotaskAdapter({ ...(settings as unknown as AutotaskSettings), zoneUrl: connection.baseUrl }, { secret: secrets.secret! });
}

/**
 * POST /integrations/psa/test: one read call with the stored credentials. Success clears a
 * failing state (and queues a sync: what waited is sent); failure says what failed and why.
 */
export async function testPsaConnection(db: Db, partnerId: string): Promise<{ ok: boolean; error: string | null }> {
  const connection = await db.psaConnection.findUnique({ where: { partnerId } });
  if (!connection) throw notFound(PSA_NOT_CONNECTED);
  try {
    await adapterFor(connection).testConnection();
  } catch (error) {
    if (!(error instanceof PsaError)) throw error;
    if (error.kind === "auth") await markPsaFailing(db, connection.id, error.message);
    return { ok: false, error: error.message };
  }
  await db.$transaction(async (tx) => {
    await tx.psaConnection.update({ where: { id: connection.id }, data: { state: "ok", failingSince: null, lastError: null } });
    await requestPartnerPsaSync(tx, partnerId);
  });
  await wakeJobWorkers();
  return { ok: true, error: null };
}

/**
 * The PSA refused the credentials: nothing is sent until they are replaced or a test succeeds.
 * The change from ok to failing starts a failing episode and tells the partner's contact, once
 * (a retry, a poll or a second replica finds the connection failing already and only records
 * the latest answer). Returns whether this call started the episode.
 */
export async function markPsaFailing(db: Db, connectionId: string, reason: string): Promise<boolean> {
  const notices = await db.$transaction(async (tx) => {
    const changed = await tx.psaConnection.updateMany({
      where: { id: connectionId, state: "ok" },
      data: { state: "failing", failingSince: new Date(), lastError: reason },
    });
    if (changed.count === 0) {
      await tx.psaConnection.updateMany({ where: { id: connectionId }, data: { lastError: reason } });
      return undefined;
    }
    return queuePsaFailingNotice(tx, await tx.psaConnection.findUniqueOrThrow({ where: { id: connectionId } }));
  });
  if (notices && notices.length > 0) await wakeJobWorkers();
  return notices !== undefined;
}

/**
 * PUT /integrations/customer/{customerId}/psa: the customer's PSA company. Its open findings
 * are ticketed by the sync this queues (they waited for the mapping).
 */
export async function mapCustomerToPsaCompany(db: Db, partnerId: string, customerId: string, companyId: string) {
  await db.$transaction(async (tx) => {
    const customer = await lockOwnedCustomer(tx, partnerId, customerId);
    await tx.psaCustomerCompany.upsert({
      where: { customerId: customer.id },
      create: { customerId: customer.id, companyId },
      update: { companyId },
    });
    await requestPartnerPsaSync(tx, partnerId);
  });
  await wakeJobWorkers();
  return { customerId, companyId };
}
