import { createHash } from "node:crypto";
import { config } from "../config";
import type { Db, Queryable } from "../db/client";
import { AppError, badRequest, conflict } from "../errors";
import { primaryColorProblem, textColorOn } from "./colors";
import { logoPng, pngDataUrl } from "./logo";
import { normalizedHost } from "./brand";

/** What a partner or distributor sets (docs/brand.md); PUT replaces the whole brand, null or absent clears a field. */
export interface BrandInput {
  name?: string | null;
  logo?: string | null;
  primaryColor?: string | null;
  supportEmail?: string | null;
  supportPhone?: string | null;
  supportUrl?: string | null;
  senderName?: string | null;
  replyTo?: string | null;
  /** A partner's only. */
  portalHost?: string | null;
}

/** The brand as GET answers it: what was set (null: not set, the fallback applies), and the text colour chosen. */
export interface BrandSettings {
  name: string | null;
  logo: string | null;
  primaryColor: string | null;
  textColor: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  supportUrl: string | null;
  senderName: string | null;
  replyTo: string | null;
  portalHost?: string | null;
}

export const PORTAL_HOST_INVALID = "portalHost must be a host name such as portal.example.com (no scheme, port or path)";
export const PORTAL_HOST_TAKEN = "portalHost is registered for another partner";
export const PORTAL_HOST_IS_APP = "portalHost must not be the service's own host (APP_URL)";
export const SUPPORT_URL_INVALID = "supportUrl must be an https:// or http:// address";

export type BrandOrganization = { partnerId: string } | { distributorId: string };

const whereOf = (owner: BrandOrganization) =>
  "partnerId" in owner ? { partnerId: owner.partnerId } : { distributorId: owner.distributorId };

export async function getBrandSettings(db: Queryable, owner: BrandOrganization): Promise<BrandSettings> {
  const row = await db.brand.findUnique({ where: whereOf(owner) });
  const settings: BrandSettings = {
    name: row?.name ?? null,
    logo: row?.logoPng ? pngDataUrl(Buffer.from(row.logoPng)) : null,
    primaryColor: row?.primaryColor ?? null,
    textColor: row?.primaryColor ? textColorOn(row.primaryColor) : null,
    supportEmail: row?.supportEmail ?? null,
    supportPhone: row?.supportPhone ?? null,
    supportUrl: row?.supportUrl ?? null,
    senderName: row?.senderName ?? null,
    replyTo: row?.replyTo ?? null,
  };
  return "partnerId" in owner ? { ...settings, portalHost: row?.portalHost ?? null } : settings;
}

/**
 * Replaces the organization's brand: the logo decoded and stored as PNG (an SVG rasterised), the
 * colour checked for contrast, the portal host checked to be a plain host name nobody else holds.
 * A brand with nothing set is removed (today's look, or the distributor's default, again).
 */
export async function putBrandSettings(db: Db, owner: BrandOrganization, input: BrandInput): Promise<BrandSettings> {
  const primaryColor = input.primaryColor?.toLowerCase() ?? null;
  if (primaryColor) {
    const problem = primaryColorProblem(primaryColor);
    if (problem) throw badRequest(problem);
  }
  if (input.supportUrl && !/^https?:\/\/[^\s/]+/i.test(input.supportUrl)) throw badRequest(SUPPORT_URL_INVALID);
  const portalHost = "partnerId" in owner ? await checkedPortalHost(db, owner.partnerId, input.portalHost) : null;
  const data = {
    name: input.name ?? null,
    logoPng: input.logo ? new Uint8Array(await logoPng(input.logo)) : null,
    primaryColor,
    supportEmail: input.supportEmail?.toLowerCase() ?? null,
    supportPhone: input.supportPhone ?? null,
    supportUrl: input.supportUrl ?? null,
    senderName: input.senderName ?? null,
    replyTo: input.replyTo?.toLowerCase() ?? null,
    portalHost,
  };
  const where = whereOf(owner);
  if (Object.values(data).every((value) => value === null)) {
    await db.brand.deleteMany({ where });
  } else {
    try {
      await db.brand.upsert({ where, create: { ...where, ...data }, update: data });
    } catch (error) {
      if ((error as { code?: string }).code === "P2002") throw conflict(PORTAL_HOST_TAKEN);
      throw error;
    }
  }
  return getBrandSettings(db, owner);
}

async function checkedPortalHost(db: Queryable, partnerId: string, raw: string | null | undefined): Promise<string | null> {
  if (raw === null || raw === undefined || raw.trim() === "") return null;
  const host = normalizedHost(raw);
  if (!host || host !== raw.trim().toLowerCase()) throw badRequest(PORTAL_HOST_INVALID);
  if (host === new URL(config.appUrl()).hostname.toLowerCase()) throw badRequest(PORTAL_HOST_IS_APP);
  const holder = await db.brand.findUnique({ where: { portalHost: host }, select: { partnerId: true } });
  if (holder && holder.partnerId !== partnerId) throw new AppError("CONFLICT", PORTAL_HOST_TAKEN);
  return host;
}

/** The brand as the audit log keeps it: the logo by size and digest, not its bytes. */
export function auditedBrand(settings: unknown): unknown {
  if (!settings || typeof settings !== "object") return settings;
  const record = settings as { data?: BrandSettings } & Partial<BrandSettings>;
  const brand = record.data ?? record;
  const logo = typeof brand.logo === "string" ? `sha256:${createHash("sha256").update(brand.logo).digest("hex").slice(0, 16)}` : brand.logo;
  return { ...brand, logo };
}
