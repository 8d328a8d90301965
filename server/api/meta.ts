import type { StaffRule } from "../auth/staff-roles";
import type { AuditSpec } from "./audit";
import type { OpenApiMeta } from "trpc-to-openapi";

/** How a zod validation failure becomes the error message of an endpoint. */
export type ValidationStyle =
  /** "Validation failed: <field>: <message>" (the default) */
  | "prefixed"
  /** "<field>: <message>", e.g. "page: Too small: expected number to be >=1" */
  | "field"
  /** "<message>" alone, e.g. "Plan ID must be valid" */
  | "message"
  /** "<prefix><message>", e.g. "Invalid route parameters: Customer ID must be a valid UUID" */
  | { prefix: string };

export interface EndpointErrors {
  /** The 500 message, e.g. "Failed to onboard customer". */
  failure: string;
  /** The 400 message for a body that is not JSON (default "Invalid JSON in request body"). */
  invalidJson?: string;
  validation?: ValidationStyle;
}

/** Who may call a procedure; set by the procedure builders in trpc.ts, read by the OpenAPI document. */
export type AuthKind = "none" | "partner" | "partnerOrDistributor" | "distributor";

export type AppMeta = OpenApiMeta<{
  auth?: AuthKind;
  /** How a mutation is audited (server/api/audit.ts); every mutation of a builder that takes credentials states one. */
  audit?: AuditSpec;
  /** Admin UI: what the procedure needs of the staff member's role (server/auth/staff-roles.ts). */
  staffRule?: StaffRule;
  /** Admin UI: callable before a staff member who must enrol in MFA has done so (the enrolment itself). */
  beforeMfaEnrolment?: boolean;
  errors?: EndpointErrors;
  /** Error statuses this endpoint answers besides the common ones, with its message (or messages) each. */
  responses?: Record<number, string | string[]>;
  /** Body keys that existing clients send and the path accepts and ignores (any other unknown key is a 400). */
  ignoredFields?: string[];
  /**
   * The media type of a successful answer that is not JSON (the procedure sets ctx.response.body);
   * the OpenAPI document declares it, as a binary string, in place of the output schema.
   */
  produces?: "application/pdf";
  /** Status of a successful answer (default 200). */
  successStatus?: number;
  /**
   * The path is rate limited per API key: its answers carry RateLimit-Policy and RateLimit, its
   * 429 Retry-After too (docs/api.md, "Rate limits"); the OpenAPI document declares them.
   */
  rateLimited?: boolean;
}>;
