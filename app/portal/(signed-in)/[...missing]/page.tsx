import { notFound } from "next/navigation";
import { portalPage } from "../../portal-page";

/** Any other /portal address: the portal's not-found page, in its layout (signed-in customers only). */
export default async function MissingPortalPage({ params }: { params: Promise<{ missing: string[] }> }) {
  await portalPage(`/portal/${(await params).missing.map(encodeURIComponent).join("/")}`);
  notFound();
}
