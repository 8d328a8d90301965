import { Prisma } from "./client";

/** PostgreSQL's SQLSTATE for unique_violation. */
const UNIQUE_VIOLATION = "23505";

/** What Prisma's driver adapters record of a database error (meta.driverAdapterError.cause). */
interface AdapterErrorCause {
  kind?: string;
  originalCode?: string;
  originalMessage?: string;
  /** The pg adapter names the index; the PGlite adapter only lists the key's columns. */
  constraint?: { index?: string; fields?: string[] };
}

/**
 * Whether `error` is a unique violation, in every form one reaches a service, on PostgreSQL (the
 * pg adapter) and on the embedded PGlite alike: a model write's P2002, a raw statement's P2010
 * (both with the adapter's UniqueConstraintViolation), or the driver's own error (SQLSTATE
 * 23505) from a statement sent to it directly (server/db/direct-read.ts, bulk-write.ts). With
 * `constraint` (a unique index or constraint's name), only a violation of that one.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const violated = violatedConstraint(error);
  return violated !== undefined && (constraint === undefined || violated === constraint);
}

/** The violated constraint's name ("" when the error does not say), or undefined when it is no unique violation. */
function violatedConstraint(error: unknown): string | undefined {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const cause = (error.meta?.driverAdapterError as { cause?: AdapterErrorCause } | undefined)?.cause;
    const unique = error.code === "P2002" || cause?.kind === "UniqueConstraintViolation" || cause?.originalCode === UNIQUE_VIOLATION;
    if (!unique) return undefined;
    // PGlite's messages are PostgreSQL's English ones, which quote the constraint's name.
    return cause?.constraint?.index ?? /"([^"]+)"/.exec(cause?.originalMessage ?? "")?.[1] ?? "";
  }
  if (typeof error === "object" && error !== null && (error as { code?: unknown }).code === UNIQUE_VIOLATION) {
    const name = (error as { constraint?: unknown }).constraint;
    return typeof name === "string" ? name : "";
  }
  return undefined;
}
