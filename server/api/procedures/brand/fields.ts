import { z } from "zod";
import { emailField, optionalText } from "../../schemas";

/** The brand a partner or distributor sets (docs/brand.md); PUT replaces it whole, a field absent or null is not set. */
export const brandFieldsShape = {
  name: optionalText(100).meta({ description: "The display name customers read", example: "Acme IT" }),
  logo: z.string().nullable().optional().meta({
    description: "A data: URL of a PNG or SVG image, at most 256 KB decoded; an SVG is rasterised to PNG. GET answers the stored PNG.",
    example: "data:image/png;base64,iVBORw0KGgo...",
  }),
  primaryColor: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "#rrggbb, at least 3:1 against white; the text on it is black or white (WCAG AA)", example: "#0b5394" }),
  supportEmail: emailField("supportEmail").nullable().optional(),
  supportPhone: z
    .string()
    .trim()
    .max(40, { error: "supportPhone must be at most 40 characters" })
    .regex(/^\+?[0-9 ()./-]{3,}$/, { error: "supportPhone may hold only digits, spaces, + ( ) . / -" })
    .nullable()
    .optional()
    .meta({ example: "+44 20 7946 0000" }),
  supportUrl: optionalText(500).meta({ description: "https:// or http://", example: "https://help.acme.example" }),
  senderName: optionalText(100).meta({ description: "The display name of the From header of customers' e-mails", example: "Acme IT" }),
  replyTo: emailField("replyTo")
    .nullable()
    .optional()
    .meta({ description: "Where customers' replies go (else the partner's reply_to_email)" }),
};

export const partnerBrandInput = z.object({
  ...brandFieldsShape,
  portalHost: optionalText(253).meta({
    description: "The partner's own portal host name, e.g. portal.acme.example",
    example: "portal.acme.example",
  }),
});
export const distributorBrandInput = z.object(brandFieldsShape);

const settings = {
  name: z.string().nullable(),
  logo: z.string().nullable(),
  primaryColor: z.string().nullable(),
  textColor: z.string().nullable().meta({ description: "The text colour on primaryColor (#ffffff or #000000)" }),
  supportEmail: z.string().nullable(),
  supportPhone: z.string().nullable(),
  supportUrl: z.string().nullable(),
  senderName: z.string().nullable(),
  replyTo: z.string().nullable(),
};
export const partnerBrandOutput = z.object({
  success: z.literal(true),
  data: z.object({ ...settings, portalHost: z.string().nullable() }),
});
export const distributorBrandOutput = z.object({ success: z.literal(true), data: z.object(settings) });

export const BRAND_ERRORS = {
  400: "primaryColor #ffee00 has a contrast of 1.24:1 against the white page; buttons and the header in it need at least 3:1 (WCAG 2.1 AA, non-text contrast): choose a darker colour",
  409: "portalHost is registered for another partner",
  413: "logo is larger than 256 KB",
};
