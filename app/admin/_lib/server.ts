import { TRPCError } from "@trpc/server";
import { notFound, redirect } from "next/navigation";
import { uiCaller } from "@/server/api/ui/handler";
import { currentUiSession, type UiSession } from "@/server/api/ui/session";
import { AppError } from "@/server/errors";

export const SIGN_IN_PATH = "/admin/sign-in";

/** The signed-in staff member, or a redirect to the sign-in page. */
export async function requireStaff(): Promise<Extract<UiSession, { kind: "staff" }>> {
  const session = await currentUiSession("staff");
  if (session?.kind !== "staff") redirect(SIGN_IN_PATH);
  return session;
}

/**
 * The UI procedures for an admin page, as the signed-in staff member (every page calls this, so
 * no page relies on its layout for the check); without a staff session, the sign-in page.
 */
export async function adminApi() {
  return uiCaller(await requireStaff());
}

/**
 * A record the page is about (a partner, a webhook): another distributor's, an unknown or a
 * malformed id is the 404 page, whatever the procedure's own message.
 */
export async function foundOr404<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    const cause = error instanceof TRPCError ? error.cause : undefined;
    if (cause instanceof AppError && (cause.code === "NOT_FOUND" || cause.code === "BAD_REQUEST")) notFound();
    throw error;
  }
}

/** A positive page number from the query string (1 for anything else). */
export function pageParam(value: string | string[] | undefined): number {
  const page = Number(Array.isArray(value) ? value[0] : value);
  return Number.isSafeInteger(page) && page >= 1 ? Math.min(page, 10_000_000) : 1;
}

/** One value of a query string parameter. */
export function textParam(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() || undefined;
}

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;
