import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { UI_MAX_BATCH_SIZE } from "@/server/api/ui/batch-size";
import type { UiRouter } from "@/server/api/ui/root";

/** The portal's procedures from the browser (/api/trpc, with the session cookie). */
export const uiClient = createTRPCClient<UiRouter>({ links: [httpBatchLink({ url: "/api/trpc", maxItems: UI_MAX_BATCH_SIZE })] });

const SESSION_ENDED = "/auth/error?reason=session-ended";

/**
 * Renews the access token (POST /auth/refresh rotates the refresh token in the cookie).
 * Returns the new expiry (epoch seconds), or null when the session has ended.
 */
export async function refreshAccess(): Promise<number | null> {
  const response = await fetch("/auth/refresh", { method: "POST", credentials: "same-origin" });
  if (response.status === 401) return null;
  if (!response.ok) throw new Error(`refresh failed with status ${response.status}`);
  return ((await response.json()) as { accessExpiresAt: number }).accessExpiresAt;
}

/** The page that explains an ended session (the cookie is already gone). */
export function leaveEndedSession(router: { replace(href: string): void }): void {
  router.replace(SESSION_ENDED);
}

/**
 * Runs a call; if the access token ran out meanwhile, renews it once and runs the call again.
 * When the session has ended, the customer is taken to the page that says so.
 */
export async function withFreshAccess<T>(call: () => Promise<T>, router: { replace(href: string): void }): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TRPCClientError) || error.data?.httpStatus !== 401) throw error;
    if ((await refreshAccess()) === null) {
      leaveEndedSession(router);
      throw error;
    }
    return call();
  }
}
