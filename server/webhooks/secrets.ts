import { randomUUID } from "node:crypto";
import type { Db, Queryable } from "../db/client";
import { notFound } from "../errors";
import { decryptSecret, encryptSecret } from "../app-key";
import { lockOwner, type WebhookOwner } from "./owner";

/**
 * Signing secrets of the current protocol (docs/webhooks.md, signing secrets): per organization
 * at most one active and one fallback. Tokens are UUID strings, stored encrypted with the app
 * key and shown only when created. A retired secret is deleted.
 */
export const SECRET_NOT_FOUND = "Signing secret not found";

export interface NewSecret {
  id: string;
  token: string;
}

export interface SecretListItem {
  id: string;
  status: "active" | "fallback";
  createdAt: Date;
}

/** The tokens an organization signs with; `active` is missing when it has none. */
export interface SigningTokens {
  active?: string;
  fallback?: string;
}

async function insertActive(tx: Queryable, owner: WebhookOwner): Promise<NewSecret> {
  const token = randomUUID();
  const row = await tx.webhookSecret.create({
    data: { ...owner, status: "active", tokenCiphertext: encryptSecret(token) },
    select: { id: true },
  });
  return { id: row.id, token };
}

/** A new active secret replacing every existing one at once (for a leaked secret: no fallback kept). */
export async function generateSecret(db: Db, owner: WebhookOwner): Promise<NewSecret> {
  return db.$transaction(async (tx) => {
    await lockOwner(tx, owner);
    await tx.webhookSecret.deleteMany({ where: owner });
    return insertActive(tx, owner);
  });
}

/** A new active secret; the previous active one becomes the fallback and an older fallback retires. */
export async function cycleSecret(db: Db, owner: WebhookOwner): Promise<NewSecret> {
  return db.$transaction(async (tx) => {
    await lockOwner(tx, owner);
    await tx.webhookSecret.deleteMany({ where: { ...owner, status: "fallback" } });
    await tx.webhookSecret.updateMany({ where: { ...owner, status: "active" }, data: { status: "fallback" } });
    return insertActive(tx, owner);
  });
}

/** Deactivates (deletes) one secret of the owner. Deactivating the active one leaves none active. */
export async function deactivateSecret(db: Db, owner: WebhookOwner, id: string): Promise<void> {
  const { count } = await db.webhookSecret.deleteMany({ where: { ...owner, id } });
  if (count === 0) throw notFound(SECRET_NOT_FOUND);
}

export async function listSecrets(db: Db, owner: WebhookOwner): Promise<SecretListItem[]> {
  return db.webhookSecret.findMany({
    where: owner,
    orderBy: [{ status: "asc" }, { createdAt: "desc" }],
    select: { id: true, status: true, createdAt: true },
  });
}

/** The owner's active token, created first when there is none. Call with the owner locked. */
export async function ensureActiveSecret(tx: Queryable, owner: WebhookOwner): Promise<string> {
  const active = await tx.webhookSecret.findFirst({ where: { ...owner, status: "active" }, select: { tokenCiphertext: true } });
  return active ? decryptSecret(active.tokenCiphertext) : (await insertActive(tx, owner)).token;
}
