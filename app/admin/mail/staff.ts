import { TRPCError } from "@trpc/server";
import { notFound, redirect } from "next/navigation";
import { uiCaller } from "@/server/api/ui/handler";
import { AppError } from "@/server/errors";

/**
 * Runs a staff procedure for a mail page: without a staff session, the sign-in page; a message
 * that is not found (another distributor's, a malformed id), the 404 page.
 */
export async function asStaff<T>(work: (api: Awaited<ReturnType<typeof uiCaller>>["admin"]["mail"]) => Promise<T>, path: string): Promise<T> {
  try {
    return await work((await uiCaller()).admin.mail);
  } catch (error) {
    const cause = error instanceof TRPCError ? error.cause : undefined;
    if (cause instanceof AppError && cause.code === "UNAUTHENTICATED") redirect(`/admin/sign-in?callbackUrl=${encodeURIComponent(path)}`);
    if (cause instanceof AppError && cause.code === "NOT_FOUND") notFound();
    throw error;
  }
}

export const KIND_LABELS = { welcome: "Welcome", breach_alert: "Breach alert", monthly_report: "Monthly report" } as const;

/** "2026-11-21 22:15 UTC"; "—" for none. */
export function formatDateTime(value: Date | null): string {
  return value ? `${value.toISOString().slice(0, 10)} ${value.toISOString().slice(11, 16)} UTC` : "—";
}
