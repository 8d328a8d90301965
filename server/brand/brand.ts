import { config } from "../config";
import type { Queryable } from "../db/client";
import { textColorOn } from "./colors";
import { pngDataUrl } from "./logo";

/**
 * What a customer sees of whoever serves them (docs/brand.md): a partner's own brand, else its
 * distributor's default, else the service's own look, field by field. The reports, e-mails,
 * PDFs and the portal all take this one object.
 */
export interface Brand {
  /** Where the brand came from: the partner's own, the distributor's default, or none (today's look). */
  source: "partner" | "distributor" | "default";
  /** The name customers read: the brand's, else the partner's own name, else the service's. */
  name: string;
  /** The logo as PNG (an SVG was rasterised on upload), or null. */
  logo: { png: Buffer; dataUrl: string } | null;
  /** #rrggbb, and the text colour on it (black or white, WCAG AA). */
  primaryColor: string;
  textOnPrimary: string;
  supportEmail: string | null;
  supportPhone: string | null;
  supportUrl: string | null;
  /** The From header's display name of customers' e-mails (the address stays MAIL_FROM's). */
  senderName: string | null;
  replyTo: string | null;
  /** The partner's own portal host (registered), or null: links then use APP_URL. */
  portalHost: string | null;
}

/** The service's own look: what a partner without a brand (and without a distributor default) shows. */
export const DEFAULT_BRAND: Brand = {
  source: "default",
  name: "Exposure monitoring",
  logo: null,
  primaryColor: "#1d4ed8",
  textOnPrimary: "#ffffff",
  supportEmail: null,
  supportPhone: null,
  supportUrl: null,
  senderName: null,
  replyTo: null,
  portalHost: null,
};

const BRAND_COLUMNS = {
  name: true,
  logoPng: true,
  primaryColor: true,
  supportEmail: true,
  supportPhone: true,
  supportUrl: true,
  senderName: true,
  replyTo: true,
  portalHost: true,
} as const;

type BrandRow = {
  name: string | null;
  logoPng: Uint8Array | null;
  primaryColor: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  supportUrl: string | null;
  senderName: string | null;
  replyTo: string | null;
  portalHost: string | null;
};

export type BrandOwner = { partnerId: string } | { customerId: string } | { distributorId: string };

/**
 * The brand a partner's customers see (by the partner or one of its customers), or a
 * distributor's default (by the distributor): partner -> distributor -> the service's look.
 * An unknown id is the service's look.
 */
export async function brandFor(db: Queryable, owner: BrandOwner): Promise<Brand> {
  if ("distributorId" in owner) {
    const own = await db.brand.findUnique({ where: { distributorId: owner.distributorId }, select: BRAND_COLUMNS });
    return resolveBrand(null, own, null);
  }
  const partnerId =
    "partnerId" in owner
      ? owner.partnerId
      : (await db.customer.findUnique({ where: { id: owner.customerId }, select: { partnerId: true } }))?.partnerId;
  if (!partnerId) return DEFAULT_BRAND;
  const partner = await db.partner.findUnique({
    where: { id: partnerId },
    select: {
      name: true,
      replyToEmail: true,
      brand: { select: BRAND_COLUMNS },
      distributor: { select: { brand: { select: BRAND_COLUMNS } } },
    },
  });
  if (!partner) return DEFAULT_BRAND;
  return resolveBrand(partner.brand, partner.distributor.brand, partner);
}

/** The brand of the partner that registered `host` as its portal host, or null (any other host: the service's look). */
export async function brandForPortalHost(db: Queryable, host: string | null | undefined): Promise<Brand | null> {
  const name = normalizedHost(host);
  if (!name) return null;
  const row = await db.brand.findUnique({ where: { portalHost: name }, select: { partnerId: true } });
  return row?.partnerId ? brandFor(db, { partnerId: row.partnerId }) : null;
}

/** A Host header's name in lower case without its port; null when it is not a plain host name. */
export function normalizedHost(host: string | null | undefined): string | null {
  const name = host?.trim().toLowerCase().replace(/:\d+$/, "");
  return name && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(name) ? name : null;
}

function resolveBrand(
  own: BrandRow | null,
  fallback: BrandRow | null,
  partner: { name: string; replyToEmail: string | null } | null,
): Brand {
  if (!own && !fallback) return { ...DEFAULT_BRAND, name: partner?.name ?? DEFAULT_BRAND.name, replyTo: partner?.replyToEmail ?? null };
  const pick = <K extends keyof BrandRow>(key: K): BrandRow[K] | null => own?.[key] ?? fallback?.[key] ?? null;
  const primaryColor = pick("primaryColor") ?? DEFAULT_BRAND.primaryColor;
  const logo = pick("logoPng");
  return {
    source: own ? "partner" : "distributor",
    name: pick("name") ?? partner?.name ?? DEFAULT_BRAND.name,
    logo: logo ? { png: Buffer.from(logo), dataUrl: pngDataUrl(Buffer.from(logo)) } : null,
    primaryColor,
    textOnPrimary: textColorOn(primaryColor),
    supportEmail: pick("supportEmail"),
    supportPhone: pick("supportPhone"),
    supportUrl: pick("supportUrl"),
    senderName: pick("senderName"),
    replyTo: pick("replyTo") ?? partner?.replyToEmail ?? null,
    // A distributor's default has no portal host: a host belongs to one partner.
    portalHost: own?.portalHost ?? null,
  };
}

/**
 * Where links sent to the brand's customers point: the partner's registered portal host (same
 * scheme and port as APP_URL, TLS ends at the proxy), else APP_URL. Never a request's Host header.
 */
export function brandBaseUrl(brand: Pick<Brand, "portalHost">): string {
  const app = new URL(config.appUrl());
  if (!brand.portalHost) return config.appUrl();
  return `${app.protocol}//${brand.portalHost}${app.port ? `:${app.port}` : ""}`;
}
