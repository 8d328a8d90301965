import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { uiCaller } from "@/server/api/ui/handler";
import { portalSessionCookieName } from "@/server/auth/ui-cookie";
import { currentUiSession, type CustomerUiSession } from "@/server/api/ui/session";
import { DEFAULT_LOCALE } from "@/server/i18n/locales";
import { AppError } from "@/server/errors";
import { isAccessExpired } from "@/server/portal/sessions";
import { signInErrorPath } from "@/server/portal/auth-routes";
import { portalMessages, type PortalMessages } from "@/server/i18n/translations";
import { requestBrand } from "./brand";

/**
 * The signed-in customer; without one, the sign-in form (never signed in, or signed out), or the
 * page that says the session ended. Once per request (React's cache), however many layouts, pages
 * and titles ask.
 */
export const signedInCustomer = cache(async (): Promise<CustomerUiSession> => {
  const session = await currentUiSession("customer");
  if (session?.kind === "customer") return session;
  const hadSession = (await cookies()).has(portalSessionCookieName());
  redirect(hadSession ? signInErrorPath("session-ended") : "/portal/sign-in");
});

/** The customer's portal procedures and who they are, once per request. */
const portalOfRequest = cache(async () => {
  const portal = (await uiCaller(await signedInCustomer())).portal;
  return { portal, me: await portal.me() };
});

/**
 * What every portal page starts with: the signed-in customer's procedures, who they are and
 * their texts. An access token that ran out is renewed through /auth/refresh, which brings the
 * customer back to `path`.
 */
export async function portalPage(path: string) {
  const session = await signedInCustomer();
  if (isAccessExpired(session.accessExpiresAt)) redirect(`/auth/refresh?next=${encodeURIComponent(path)}`);
  const { portal, me } = await portalOfRequest();
  return { portal, me, t: portalMessages(me.locale) };
}

/** The signed-in customer as the layout shows them. */
export async function portalMe() {
  return (await portalOfRequest()).me;
}

/** Texts in the signed-in customer's language (en-GB when there is nobody to ask), e.g. for page titles. */
export async function portalText<T>(pick: (t: PortalMessages) => T): Promise<T> {
  const locale = await portalOfRequest()
    .then(({ me }) => me.locale)
    .catch(() => DEFAULT_LOCALE);
  return pick(portalMessages(locale));
}

/**
 * A signed-in page's title: under a partner's brand "Breaches · Acme IT" (docs/brand.md), else
 * the text alone, as it always was.
 */
export async function portalTitle(pick: (t: PortalMessages) => string): Promise<string | { absolute: string }> {
  const [text, brand] = await Promise.all([portalText(pick), requestBrand().catch(() => null)]);
  return brand ? { absolute: `${text} · ${brand.name}` } : text;
}

/** Whether a portal procedure refused because what was asked for is not the customer's (or does not exist). */
export function isNotFound(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof AppError && cause.code === "NOT_FOUND";
}
