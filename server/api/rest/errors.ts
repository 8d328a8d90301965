import { TRPCError } from "@trpc/server";
import { AppError } from "../../errors";
import type { EndpointErrors, ValidationStyle } from "../meta";

export interface HttpError {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** Set for unexpected failures: what goes to the log (never to the client). */
  unexpected?: unknown;
}

interface IssueLike {
  path: PropertyKey[];
  message: string;
}

/** The one place where a failure becomes a status and the text of `{success:false, error}`. */
export function toHttpError(error: unknown, errors: EndpointErrors): HttpError {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof AppError) return { status: cause.status, message: cause.message, headers: cause.headers };
  const issues = zodIssues(cause);
  if (issues && error instanceof TRPCError && error.code === "BAD_REQUEST") {
    return { status: 400, message: validationMessage(issues, errors.validation), headers: {} };
  }
  return { status: 500, message: errors.failure, headers: {}, unexpected: error };
}

function zodIssues(error: unknown): IssueLike[] | undefined {
  if (typeof error !== "object" || error === null || !("issues" in error)) return undefined;
  const issues = (error as { issues: unknown }).issues;
  return Array.isArray(issues) && issues.length > 0 ? (issues as IssueLike[]) : undefined;
}

export function validationMessage(issues: IssueLike[], style: ValidationStyle = "prefixed"): string {
  const first = issues[0]!;
  const field = first.path.map(String).join(".");
  const withField = field ? `${field}: ${first.message}` : first.message;
  if (style === "field") return withField;
  if (style === "message") return first.message;
  if (typeof style === "object") return style.prefix + first.message;
  return `Validation failed: ${withField}`;
}
